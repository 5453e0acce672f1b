/**
 * The body of a streamed call to OpenAI's Responses API (`POST {baseURL}/responses`), built from the
 * conversation as the agent keeps it (OpenAI chat messages). The API's reference:
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import type { UserContentPart } from '../content-parts.js';
import type { AssistantMessage, ChatMessage, ReasoningItem, ToolSchema } from '../messages.js';

/** An input message: the user's (text or parts), the assistant's text, or a system message. */
export interface ResponsesInputMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | ResponsesInputContent[];
}
/** A part of a user message. */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' }
  | { type: 'input_file'; filename: string; file_data: string };
/** A tool call the model made, sent back before its output. */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}
/** A tool's result. */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}
/** One item of `input`. */
export type ResponsesInputItem = ResponsesInputMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput | ReasoningItem;

/** A function tool; `strict: false` because the API makes tools strict by default, which our schemas need not be. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** The body's fields we set (the caller's kwargs are spread over them). */
export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  instructions?: string;
  tools?: ResponsesFunctionTool[];
  stream: true;
  store: boolean;
  include?: Array<'reasoning.encrypted_content'>;
}

const userContent = (part: UserContentPart): ResponsesInputContent =>
  part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : part.type === 'image_url'
      ? { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' }
      : { type: 'input_file', filename: part.file.filename, file_data: part.file.file_data };

/**
 * The items of one assistant message: its reasoning items, its text, its tool calls — in the order the
 * API produced them. A reasoning item goes back only with its `encrypted_content` (a `store: false`
 * request cannot look it up by id) or, when the responses are stored, by its id; and only when an item
 * follows it, which the API requires.
 */
function assistantItems(m: AssistantMessage, stored: boolean, out: ResponsesInputItem[]): void {
  const calls = m.tool_calls ?? [];
  const text = m.content ?? '';
  if (text !== '' || calls.length > 0) {
    for (const block of m.reasoning_blocks ?? []) {
      if (block.type === 'reasoning' && (block.encrypted_content !== undefined || stored)) out.push(block);
    }
  }
  if (text !== '') out.push({ role: 'assistant', content: text });
  for (const call of calls) out.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
}

/**
 * Builds the body's own fields: the leading system messages become `instructions` (a later one stays a
 * `system` input message), user messages keep their parts as `input_text` / `input_image` /
 * `input_file`, assistant tool calls become `function_call` items and tool messages
 * `function_call_output` items. `store` is false — the conversation lives in the browser and goes whole
 * with every call — unless `kwargs.store` is true; with `kwargs.reasoning` (a reasoning model) and no
 * `kwargs.include`, `include: ["reasoning.encrypted_content"]` asks for the encrypted reasoning a
 * `store: false` conversation must send back (models without reasoning refuse that include, so it is not
 * sent by default).
 */
export function responsesRequest(model: string, messages: readonly ChatMessage[], tools: readonly ToolSchema[] | undefined, kwargs: Record<string, unknown>): ResponsesRequest {
  const stored = kwargs['store'] === true;
  const system: string[] = [];
  const input: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      if (input.length === 0) system.push(m.content);
      else input.push({ role: 'system', content: m.content });
    } else if (m.role === 'user') {
      input.push({ role: 'user', content: typeof m.content === 'string' ? m.content : m.content.map(userContent) });
    } else if (m.role === 'assistant') {
      assistantItems(m, stored, input);
    } else {
      input.push({ type: 'function_call_output', call_id: m.tool_call_id, output: m.content });
    }
  }
  const body: ResponsesRequest = { model, input, stream: true, store: false };
  if (system.length > 0) body.instructions = system.join('\n\n');
  if (tools && tools.length > 0) {
    body.tools = tools.map(({ function: f }) => ({ type: 'function', name: f.name, description: f.description, parameters: f.parameters, strict: false }));
  }
  if (kwargs['reasoning'] !== undefined && kwargs['include'] === undefined && !stored) body.include = ['reasoning.encrypted_content'];
  return body;
}
