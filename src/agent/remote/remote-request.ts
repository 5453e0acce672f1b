/**
 * The requests of a `RemoteAgent` run: the protocol's module, and each request's body (the protocol's,
 * with the page's `body` option applied).
 */
import { newId } from '../../new-id.js';
import type { ChatMessage } from '../messages.js';
import { createPagentProtocol } from './pagent.js';
import type { RemoteProtocol, RemoteProtocolName, RemoteRequest } from './protocol.js';
import type { RemoteAgentOptions } from './remote-agent-options.js';
import { turnMessages, type RunState } from './remote-turns.js';

/** The protocol's module: AG-UI's and the AI SDK's are loaded on first use; pagent's few lines are at hand. */
export function loadProtocol(name: RemoteProtocolName): Promise<RemoteProtocol> {
  if (name === 'ag-ui') return import('./ag-ui.js').then((m) => m.createAgUiProtocol());
  if (name === 'ai-sdk') return import('./ai-sdk.js').then((m) => m.createAiSdkProtocol());
  return Promise.resolve(createPagentProtocol());
}

/**
 * The body of the next request (`history`: the conversation as it may be sent): the protocol's, with
 * the page's `body` option applied. A turn still open (its calls wait for the back end's answer to the
 * questions about them) goes with it as it stands; it joins the conversation once those calls have
 * their results.
 */
export function requestBody(
  protocol: RemoteProtocol,
  extra: RemoteAgentOptions['body'],
  run: RunState,
  history: readonly ChatMessage[],
  request: Omit<RemoteRequest, 'runId' | 'messages'>,
): Record<string, unknown> {
  const body = protocol.body({ ...request, runId: newId(), messages: run.merge ? [...history, ...turnMessages(run, undefined)] : history });
  return typeof extra === 'function' ? extra(body) : extra ? { ...extra, ...body } : body;
}
