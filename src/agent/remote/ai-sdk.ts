/**
 * AI SDK back ends (`useChat` routes): every request is `{id, messages, trigger, messageId?}` with the
 * whole conversation as `UIMessage`s, as the SDK's default chat transport sends it. An answer of several
 * steps is one assistant message of parts (`step-start`, reasoning, text, `tool-<name>` parts in their
 * states); calls the server leaves without output are the page's, and `tool-approval-request` parts ask
 * for approvals answered in the tool part (`approval: {id, approved}`).
 */
import type { UnknownEvent } from '../../wire/events.js';
import type { UserContentPart } from '../content-parts.js';
import type { AssistantMessage, ChatMessage, ToolMessage } from '../messages.js';
import { messageId, type RemoteAnswer, type RemoteInterrupt, type RemoteProtocol, type RemoteRequest, type RemoteSink } from './protocol.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the stream said of a call beyond the common events: kept to send the call back as it came. */
interface CallDetail {
  /** The output exactly as the server sent it (the common event carries it as text). */
  output?: unknown;
  dynamic?: boolean;
  providerExecuted?: boolean;
  /** The approval the server asked for, and the user's answer once given. */
  approval?: { id: string; approved?: boolean };
}

/** The media type of a `data:` URL (empty when it names none). */
const mediaTypeOf = (url: string): string => /^data:([^;,]*)/.exec(url)?.[1] ?? '';

/** A user message's parts as UI message parts: files first, then the text, as `useChat` builds them. */
function userParts(content: string | readonly UserContentPart[]): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): Json => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image_url') {
      const url = part.image_url.url;
      return { type: 'file', mediaType: mediaTypeOf(url) || 'image/*', url };
    }
    return { type: 'file', mediaType: mediaTypeOf(part.file.file_data) || 'application/octet-stream', filename: part.file.filename, url: part.file.file_data };
  });
}

/** A call's arguments as the input the server validates: the parsed JSON, or the text when it is not JSON. */
function inputOf(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * A tool result's text as the output to send back: what the stream sent when it is known; else objects
 * and arrays are parsed back from their JSON (the common event carries non-text outputs as JSON text),
 * and any other text stays text.
 */
function outputOf(content: string, detail: CallDetail | undefined): unknown {
  if (detail && 'output' in detail) return detail.output;
  const first = content.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      return JSON.parse(content) as unknown;
    } catch {
      return content;
    }
  }
  return content;
}

/** The UI message part of one tool call, in the state its result (or its approval) puts it in. */
function toolPart(call: NonNullable<AssistantMessage['tool_calls']>[number], result: ToolMessage | undefined, detail: CallDetail | undefined, failed: boolean): Json {
  const part: Json = detail?.dynamic ? { type: 'dynamic-tool', toolName: call.function.name } : { type: `tool-${call.function.name}` };
  part['toolCallId'] = call.id;
  if (detail?.providerExecuted) part['providerExecuted'] = true;
  part['input'] = inputOf(call.function.arguments);
  const approval = detail?.approval;
  if (result) {
    if (approval?.approved === false) {
      part['state'] = 'output-denied';
      part['approval'] = { id: approval.id, approved: false };
    } else if (failed) {
      part['state'] = 'output-error';
      part['errorText'] = result.content;
    } else {
      part['state'] = 'output-available';
      part['output'] = outputOf(result.content, detail);
    }
    if (approval?.approved === true) part['approval'] = { id: approval.id, approved: true };
  } else if (approval) {
    part['state'] = approval.approved === undefined ? 'approval-requested' : 'approval-responded';
    part['approval'] = approval.approved === undefined ? { id: approval.id } : { id: approval.id, approved: approval.approved };
  } else part['state'] = 'input-available';
  return part;
}

/**
 * The conversation as UI messages: each user (and system) message is one, and everything the assistant
 * did between two user messages — its steps, tool calls and their results — is one assistant message
 * with a `step-start` part before each step.
 */
export function toUIMessages(threadId: string, messages: readonly ChatMessage[], details: ReadonlyMap<string, CallDetail>, failedCalls: ReadonlySet<string>): Json[] {
  const out: Json[] = [];
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.tool_call_id, message);
  let assistant: Json[] | undefined;
  messages.forEach((message, index) => {
    if (message.role === 'tool') return;
    if (message.role !== 'assistant') {
      assistant = undefined;
      out.push({ id: messageId(threadId, index), role: message.role, parts: message.role === 'user' ? userParts(message.content) : [{ type: 'text', text: message.content }] });
      return;
    }
    if (!assistant) {
      assistant = [];
      out.push({ id: messageId(threadId, index), role: 'assistant', parts: assistant });
    }
    assistant.push({ type: 'step-start' });
    if (message.reasoning_content) assistant.push({ type: 'reasoning', text: message.reasoning_content });
    if (message.content) assistant.push({ type: 'text', text: message.content });
    for (const call of message.tool_calls ?? []) assistant.push(toolPart(call, results.get(call.id), details.get(call.id), failedCalls.has(call.id)));
  });
  return out;
}

/** Tool parts of the stream worth a second look (the others are read as common events only). */
const TOOL_DOCUMENT = /^\s*\{\s*"type"\s*:\s*"tool-(input-available|output-available)"/;

/** Creates the AI SDK protocol of one `RemoteAgent`. */
export function createAiSdkProtocol(): RemoteProtocol {
  const details = new Map<string, CallDetail>();
  const detail = (id: string): CallDetail => {
    let d = details.get(id);
    if (!d) details.set(id, (d = {}));
    return d;
  };
  return {
    dialect: 'ai-sdk',
    body(request: RemoteRequest) {
      const messages = toUIMessages(request.threadId, request.messages, details, request.failedCalls);
      const body: Json = { id: request.threadId, messages, trigger: request.trigger === 'regenerate' ? 'regenerate-message' : 'submit-message' };
      if (request.trigger === 'continue') body['messageId'] = messages.at(-1)?.['id'];
      else if (request.edited !== undefined) body['messageId'] = messageId(request.threadId, request.edited);
      return body;
    },
    line(raw: string) {
      if (!TOOL_DOCUMENT.test(raw)) return;
      let part: unknown;
      try {
        part = JSON.parse(raw);
      } catch {
        return;
      }
      if (!isObject(part) || typeof part['toolCallId'] !== 'string') return;
      const d = detail(part['toolCallId']);
      if (part['dynamic'] === true) d.dynamic = true;
      if (part['providerExecuted'] === true) d.providerExecuted = true;
      if (part['type'] === 'tool-output-available' && part['preliminary'] !== true) d.output = part['output'];
    },
    observe(event: UnknownEvent, sink: RemoteSink) {
      if (event.method !== 'tool-approval-request') return;
      const { approvalId, toolCallId } = event.params;
      if (typeof approvalId !== 'string' || typeof toolCallId !== 'string') return;
      detail(toolCallId).approval = { id: approvalId };
      sink.ask({ id: approvalId, reason: 'tool_call', toolCallId });
    },
    answer(question: RemoteInterrupt, answer: RemoteAnswer) {
      const approval = question.toolCallId === undefined ? undefined : details.get(question.toolCallId)?.approval;
      if (!approval) return;
      const payload = answer.status === 'resolved' ? answer.payload : undefined;
      approval.approved = isObject(payload) && payload['approved'] === true;
    },
    reset() {
      details.clear();
    },
    // `useChat({resume: true})`'s reconnect: GET {api}/{id}/stream, 204 when nothing runs (404: no such endpoint)
    async resume(url, threadId, { headers, signal }, fetch) {
      const streamUrl = `${url.replace(/\/$/, '')}/${encodeURIComponent(threadId)}/stream`;
      const response = fetch(streamUrl, { method: 'GET', headers, signal: signal ?? null });
      const status = await response.then((r) => r.status, () => undefined);
      return status === 204 || status === 404 || signal?.aborted ? undefined : { url: streamUrl, response };
    },
  };
}
