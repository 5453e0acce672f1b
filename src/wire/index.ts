export * from './events.js';
export {
  decodeEventLine,
  encodeEventLine,
  eventToRpc,
  rpcToEvent,
  type RpcNotification,
} from './codec.js';
