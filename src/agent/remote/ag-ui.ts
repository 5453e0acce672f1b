/**
 * AG-UI back ends: every request is a `RunAgentInput` carrying the whole conversation in AG-UI's message
 * format, the page's tools, the shared state and the answers to the last run's interrupts (`resume`), as
 * `@ag-ui/client`'s `HttpAgent` sends it. Responses are AG-UI events; `STATE_SNAPSHOT` / `STATE_DELTA`
 * keep the shared state, `MESSAGES_SNAPSHOT` replaces the conversation and a `RUN_FINISHED` with an
 * interrupt outcome asks questions.
 */
import type { UnknownEvent } from '../../wire/events.js';
import type { UserContentPart } from '../content-parts.js';
import type { AssistantMessage, ChatMessage } from '../messages.js';
import { applyJsonPatch } from './json-patch.js';
import { messageId, type RemoteAnswer, type RemoteInterrupt, type RemoteProtocol, type RemoteRequest, type RemoteSink } from './protocol.js';

/** The AG-UI protocol version requests declare (`@ag-ui/core`'s `PROTOCOL_VERSION`). */
export const AG_UI_PROTOCOL_VERSION = '1.0';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `mimeType` and base64 payload of a `data:` URL, or undefined for any other URL. */
function dataSource(url: string): { type: 'data'; value: string; mimeType: string } | undefined {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,/.exec(url);
  if (!match) return undefined;
  return { type: 'data', value: url.slice(match[0].length), mimeType: match[1] || 'application/octet-stream' };
}

/** A user message's content parts in AG-UI's shape: text, image and document parts. */
function userContent(parts: readonly UserContentPart[]): Json[] {
  return parts.map((part): Json => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image_url') {
      const url = part.image_url.url;
      return { type: 'image', source: dataSource(url) ?? { type: 'url', value: url } };
    }
    const source = dataSource(part.file.file_data) ?? { type: 'url', value: part.file.file_data };
    return { type: 'document', source, metadata: { filename: part.file.filename } };
  });
}

/** The conversation as AG-UI messages: user, assistant (with `toolCalls`), reasoning and tool messages. */
export function toAgUiMessages(threadId: string, messages: readonly ChatMessage[], failedCalls: ReadonlySet<string>): Json[] {
  const out: Json[] = [];
  messages.forEach((message, index) => {
    const id = messageId(threadId, index);
    switch (message.role) {
      case 'system':
        out.push({ id, role: 'system', content: message.content });
        return;
      case 'user':
        out.push({ id, role: 'user', content: typeof message.content === 'string' ? message.content : userContent(message.content) });
        return;
      case 'assistant': {
        if (message.reasoning_content) out.push({ id: `${id}:reasoning`, role: 'reasoning', content: message.reasoning_content });
        const assistant: Json = { id, role: 'assistant' };
        if (message.content !== null && message.content !== '') assistant['content'] = message.content;
        if (message.tool_calls && message.tool_calls.length > 0) {
          assistant['toolCalls'] = message.tool_calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }));
        }
        out.push(assistant);
        return;
      }
      case 'tool': {
        const tool: Json = { id, role: 'tool', toolCallId: message.tool_call_id, content: message.content };
        if (failedCalls.has(message.tool_call_id)) tool['error'] = message.content;
        out.push(tool);
        return;
      }
    }
  });
  return out;
}

/** A text of AG-UI content: a string, or the text of its text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** A user message's AG-UI content as OpenAI content parts (media kept when given as data). */
function userParts(content: unknown): string | UserContentPart[] {
  if (!Array.isArray(content)) return textOf(content);
  const parts: UserContentPart[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    const source = part['source'];
    const url =
      isObject(source) && typeof source['value'] === 'string'
        ? source['type'] === 'data' && typeof source['mimeType'] === 'string'
          ? `data:${source['mimeType']};base64,${source['value']}`
          : source['type'] === 'url'
            ? source['value']
            : undefined
        : undefined;
    if (part['type'] === 'text' && typeof part['text'] === 'string') parts.push({ type: 'text', text: part['text'] });
    else if (part['type'] === 'image' && url !== undefined) parts.push({ type: 'image_url', image_url: { url } });
    else if (part['type'] === 'document' && url !== undefined) {
      const metadata = part['metadata'];
      const filename = isObject(metadata) && typeof metadata['filename'] === 'string' ? metadata['filename'] : 'document';
      parts.push({ type: 'file', file: { filename, file_data: url } });
    }
  }
  return parts;
}

/**
 * AG-UI messages (a `MESSAGES_SNAPSHOT`) as the conversation in OpenAI's shape. System, developer and
 * activity messages are the back end's own and are left out; a reasoning message goes onto the assistant
 * message that follows it.
 */
export function fromAgUiMessages(messages: readonly unknown[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let reasoning = '';
  for (const message of messages) {
    if (!isObject(message)) continue;
    const role = message['role'];
    if (role === 'reasoning') reasoning += textOf(message['content']);
    else if (role === 'user') out.push({ role: 'user', content: userParts(message['content']) });
    else if (role === 'assistant') {
      const content = textOf(message['content']);
      const assistant: AssistantMessage = { role: 'assistant', content };
      const calls = Array.isArray(message['toolCalls']) ? message['toolCalls'] : [];
      const toolCalls = calls.filter(isObject).flatMap((call) => {
        const fn = call['function'];
        if (typeof call['id'] !== 'string' || !isObject(fn) || typeof fn['name'] !== 'string') return [];
        return [{ id: call['id'], type: 'function' as const, function: { name: fn['name'], arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '' } }];
      });
      if (toolCalls.length > 0) {
        assistant.tool_calls = toolCalls;
        if (content === '') assistant.content = null;
      }
      if (reasoning !== '') assistant.reasoning_content = reasoning;
      reasoning = '';
      out.push(assistant);
    } else if (role === 'tool' && typeof message['toolCallId'] === 'string') {
      out.push({ role: 'tool', tool_call_id: message['toolCallId'], content: textOf(message['content']) });
    }
  }
  return out;
}

/** The interrupts of a `RUN_FINISHED` whose outcome is `interrupt`. */
function interruptsOf(params: Json): RemoteInterrupt[] {
  const outcome = params['outcome'];
  if (!isObject(outcome) || outcome['type'] !== 'interrupt' || !Array.isArray(outcome['interrupts'])) return [];
  const out: RemoteInterrupt[] = [];
  for (const item of outcome['interrupts']) {
    if (!isObject(item) || typeof item['id'] !== 'string' || typeof item['reason'] !== 'string') continue;
    const interrupt: RemoteInterrupt = { id: item['id'], reason: item['reason'] };
    if (typeof item['message'] === 'string') interrupt.message = item['message'];
    if (typeof item['toolCallId'] === 'string') interrupt.toolCallId = item['toolCallId'];
    if (isObject(item['responseSchema'])) interrupt.responseSchema = item['responseSchema'];
    if (typeof item['expiresAt'] === 'string') interrupt.expiresAt = item['expiresAt'];
    if (isObject(item['metadata'])) interrupt.metadata = item['metadata'];
    out.push(interrupt);
  }
  return out;
}

/** Creates the AG-UI protocol of one `RemoteAgent`. */
export function createAgUiProtocol(): RemoteProtocol {
  /** The answers the next request resumes with (AG-UI: one entry per open interrupt). */
  let resume: Json[] = [];
  /** Interrupts of the last run that no answer addressed yet: a new input cancels them. */
  let open: RemoteInterrupt[] = [];
  let state: unknown;
  return {
    dialect: 'ag-ui',
    body(request: RemoteRequest) {
      state = request.state;
      const entries = [...resume, ...open.map((interrupt) => ({ interruptId: interrupt.id, status: 'cancelled' }))];
      resume = [];
      open = [];
      const body: Json = {
        threadId: request.threadId,
        runId: request.runId,
        protocolVersion: AG_UI_PROTOCOL_VERSION,
        tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
        context: [],
        forwardedProps: {},
        state: request.state ?? {},
        messages: toAgUiMessages(request.threadId, request.messages, request.failedCalls),
      };
      if (entries.length > 0) body['resume'] = entries;
      return body;
    },
    observe(event: UnknownEvent, sink: RemoteSink) {
      const params = event.params;
      switch (event.method) {
        case 'STATE_SNAPSHOT':
          state = params['snapshot'];
          sink.state(state);
          return;
        case 'STATE_DELTA': {
          const delta = params['delta'];
          try {
            if (!Array.isArray(delta)) throw new Error('"delta" is not an array of operations');
            state = applyJsonPatch(state ?? {}, delta);
            sink.state(state);
          } catch (err) {
            sink.problem(`The AG-UI state patch was not applied (the state is unchanged): ${err instanceof Error ? err.message : String(err)}`);
          }
          return;
        }
        case 'MESSAGES_SNAPSHOT':
          if (Array.isArray(params['messages'])) sink.messages(fromAgUiMessages(params['messages']));
          return;
        case 'RUN_FINISHED':
          for (const interrupt of interruptsOf(params)) {
            open.push(interrupt);
            sink.ask(interrupt);
          }
          return;
      }
    },
    answer(question: RemoteInterrupt, answer: RemoteAnswer) {
      open = open.filter((interrupt) => interrupt.id !== question.id);
      const entry: Json = { interruptId: question.id, status: answer.status };
      // AG-UI refuses a null payload: an answer without one is sent without the field
      if (answer.status === 'resolved' && answer.payload !== undefined && answer.payload !== null) entry['payload'] = answer.payload;
      resume.push(entry);
    },
    reset() {
      resume = [];
      open = [];
    },
  };
}
