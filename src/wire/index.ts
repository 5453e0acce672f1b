export * from './events.js';
export {
  decodeEventLine,
  encodeEventLine,
  eventToRpc,
  rpcToEvent,
  type RpcNotification,
} from './codec.js';
export { createWireDecoder, type WireDecoder, type WireDecoderOptions } from './decoder.js';
export { decodeWireStream, type DecodeStreamOptions } from './decode-stream.js';
export type { WireFormat } from './framing.js';
export type { DialectName } from './dialects/index.js';
export { loadDialect } from './dialects/registry.js';
export { WireClient, type WireClientOptions, type WireStreamOptions, type WireClientEvent, type WireReconnectInfo } from './client.js';
export { decodeWebSocket, type DecodeWebSocketOptions } from './websocket.js';
export { encodeStream, encodeStreamHeaders, type EncodeStreamOptions, type EncodeDialect } from './encode-stream.js';

