/**
 * The body of a streamed call to Anthropic's Messages API (`POST {baseURL}/messages`), built from the
 * conversation as the agent keeps it (OpenAI chat messages). The API's reference:
 * https://docs.anthropic.com/en/api/messages
 */
import type { UserContentPart } from '../content-parts.js';
import { dataUrlBase64, dataUrlText, parseDataUrl } from '../data-url.js';
import type { AssistantMessage, ChatMessage, RedactedThinkingBlock, ThinkingBlock, ToolSchema } from '../messages.js';

/** The `anthropic-version` header every request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';
/**
 * The `max_tokens` sent when neither `requestKwargs` nor `kwargs` give one (the API requires it): 4096,
 * the most every Claude model accepts; with extended thinking (`thinking: {type: "enabled",
 * budget_tokens}`) the budget is added, as `max_tokens` must exceed it.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The image types the API takes. */
export type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
/** An image's source: base64 data, or a URL the API fetches. */
export type AnthropicImageSource = { type: 'base64'; media_type: AnthropicImageType; data: string } | { type: 'url'; url: string };
/** A document's source: a PDF (base64 or by URL) or plain text. */
export type AnthropicDocumentSource =
  | { type: 'base64'; media_type: 'application/pdf'; data: string }
  | { type: 'text'; media_type: 'text/plain'; data: string }
  | { type: 'url'; url: string };
/** A content block of a request message. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: AnthropicImageSource }
  | { type: 'document'; source: AnthropicDocumentSource; title: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }
  | ThinkingBlock
  | RedactedThinkingBlock;
/** A request message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}
/** A tool as the API describes it. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}
/** The body's fields we set (the caller's kwargs are spread over them). */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string;
  tools?: AnthropicTool[];
  stream: true;
}

// Images and PDFs go as base64 (or by URL), a text file as a plain-text document. Another media type goes
// as it is (hence the casts): the API refuses it with its own message, which the run's error shows.
function imageSource(url: string): AnthropicImageSource {
  const data = parseDataUrl(url);
  return data ? { type: 'base64', media_type: data.mediaType as AnthropicImageType, data: dataUrlBase64(data) } : { type: 'url', url };
}

function documentSource(url: string): AnthropicDocumentSource {
  const data = parseDataUrl(url);
  if (!data) return { type: 'url', url };
  if (data.mediaType.startsWith('text/')) {
    try {
      return { type: 'text', media_type: 'text/plain', data: dataUrlText(data) };
    } catch {
      // not decodable as text: sent as the bytes it is
    }
  }
  return { type: 'base64', media_type: data.mediaType as 'application/pdf', data: dataUrlBase64(data) };
}

const userBlock = (part: UserContentPart): AnthropicBlock =>
  part.type === 'text'
    ? { type: 'text', text: part.text }
    : part.type === 'image_url'
      ? { type: 'image', source: imageSource(part.image_url.url) }
      : { type: 'document', source: documentSource(part.file.file_data), title: part.file.filename };

function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // the call already failed with "Invalid JSON in tool arguments"; the API takes only an object
  }
  return {};
}

/** The thinking blocks this API produced (sent back first and unchanged, as it requires), the text, the tool calls. */
function assistantBlocks(m: AssistantMessage): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  for (const b of m.reasoning_blocks ?? []) if (b.type === 'thinking' || b.type === 'redacted_thinking') blocks.push(b);
  if (m.content) blocks.push({ type: 'text', text: m.content });
  for (const call of m.tool_calls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call.function.arguments) });
  return blocks;
}

/**
 * Builds the body's own fields. System messages become `system`; user messages keep their parts as
 * `text`, `image` and `document` blocks; an assistant message becomes its thinking blocks, text and
 * `tool_use` blocks; tool messages become `tool_result` blocks of a user message. Consecutive messages of
 * one role are merged into one (the API wants the results of parallel calls in one user message, before
 * any text). `max_tokens` is {@link ANTHROPIC_DEFAULT_MAX_TOKENS} unless `kwargs` give it.
 */
export function anthropicRequest(model: string, messages: readonly ChatMessage[], tools: readonly ToolSchema[] | undefined, kwargs: Record<string, unknown>): AnthropicRequest {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const add = (role: 'user' | 'assistant', content: string | AnthropicBlock[]): void => {
    const last = out[out.length - 1];
    if (last?.role !== role) {
      out.push({ role, content });
      return;
    }
    const blocks = (c: string | AnthropicBlock[]): AnthropicBlock[] => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);
    last.content = [...blocks(last.content), ...blocks(content)];
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') add('user', typeof m.content === 'string' ? m.content : m.content.map(userBlock));
    else if (m.role === 'assistant') {
      const blocks = assistantBlocks(m);
      if (blocks.length > 0) add('assistant', blocks);
    } else add('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content }]);
  }
  const thinking = kwargs['thinking'] as { type?: unknown; budget_tokens?: unknown } | undefined;
  const budget = thinking?.type === 'enabled' && typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : 0;
  const body: AnthropicRequest = { model, max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS + budget, messages: out, stream: true };
  if (system.length > 0) body.system = system.join('\n\n');
  if (tools && tools.length > 0) {
    body.tools = tools.map(({ function: f }) => ({ name: f.name, description: f.description, input_schema: { type: 'object', ...f.parameters } }));
  }
  return body;
}
