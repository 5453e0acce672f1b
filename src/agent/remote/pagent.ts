/**
 * pagent servers keep the conversation themselves: a request is the new message, `{message, session_id}`
 * (`session_id` once the server named one in `X-Session-Id`), with the user message's content parts in
 * `content` when files came with it — what `<pagent-chat src>` sends.
 */
import { inputText } from '../content-parts.js';
import type { RemoteProtocol, RemoteRequest } from './protocol.js';

/** Creates the pagent protocol of one `RemoteAgent`. */
export function createPagentProtocol(): RemoteProtocol {
  return {
    dialect: 'auto',
    body(request: RemoteRequest) {
      let last = request.messages.length - 1;
      while (last >= 0 && request.messages[last]!.role !== 'user') last--;
      const message = request.messages[last];
      const content = message?.role === 'user' ? message.content : '';
      const body: Record<string, unknown> = { message: inputText(content) };
      if (request.serverSessionId !== undefined) body['session_id'] = request.serverSessionId;
      if (typeof content !== 'string' && content.some((part) => part.type !== 'text')) body['content'] = content;
      return body;
    },
    observe() {},
    answer() {},
    reset() {},
  };
}
