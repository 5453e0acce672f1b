/**
 * What a stored message may be: the messages the agent writes, and nothing else. An imported file is
 * untrusted, and everything stored is sent to the provider when the conversation continues, so a field
 * the element does not show (`function_call`, `audio`), a system message in the middle of the history,
 * or a tool result no call asked for would reach the model unseen, or make the provider refuse every
 * request after it. The store refuses these on every write and import; records stored before it did are
 * read back with their unknown fields left out (see {@link storedMessage}).
 */
import type { ChatMessage, ReasoningBlock } from '../agent/messages.js';
import { partsProblem } from '../agent/content-parts.js';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields each role's message has, in the shapes the agent writes (OpenAI's chat format). */
const MESSAGE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  user: ['role', 'content'],
  assistant: ['role', 'content', 'tool_calls', 'reasoning_content', 'reasoning_blocks'],
  tool: ['role', 'tool_call_id', 'content'],
};
const CALL_FIELDS = ['id', 'type', 'function'];
const FUNCTION_FIELDS = ['name', 'arguments'];
const PART_FIELDS: Readonly<Record<string, readonly string[]>> = { text: ['type', 'text'], image_url: ['type', 'image_url'], file: ['type', 'file'] };
const IMAGE_FIELDS = ['url', 'detail'];
const FILE_FIELDS = ['filename', 'file_data'];
/**
 * The fields of each kind of kept reasoning, all strings but a `reasoning` item's `summary` and its
 * optional `encrypted_content`. They go to the provider as they are: it checks the signatures and
 * decrypts the encrypted content, so an edited block fails the request instead of reaching the model.
 */
const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  reasoning: ['type', 'id', 'summary', 'encrypted_content'],
};
const SUMMARY_FIELDS = ['type', 'text'];

/** A name from an untrusted file, quoted and cut short for an error message. */
function quoted(name: string): string {
  const text = JSON.stringify(name);
  return text.length > 60 ? `${text.slice(0, 59)}…"` : text;
}

function unknownField(o: Fields, known: readonly string[]): string | undefined {
  for (const key of Object.keys(o)) if (!known.includes(key)) return `an unknown field ${quoted(key)}`;
  return undefined;
}

function toolCallProblem(call: unknown): string | undefined {
  if (!isObject(call)) return 'a tool call is not an object';
  if (typeof call.id !== 'string') return 'a tool call has no string id';
  if (call.type !== 'function') return 'a tool call type is not "function"';
  const fn = call.function;
  if (!isObject(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
    return 'a tool call has no function {name, arguments}';
  }
  const extra = unknownField(call, CALL_FIELDS) ?? unknownField(fn, FUNCTION_FIELDS);
  return extra && `a tool call has ${extra}`;
}

function reasoningBlocksProblem(blocks: unknown, reading: boolean): string | undefined {
  if (!Array.isArray(blocks)) return 'reasoning_blocks is not an array';
  for (let i = 0; i < blocks.length; i++) {
    const b: unknown = blocks[i];
    const bad = `reasoning block ${i}`;
    if (!isObject(b)) return `${bad} is not an object`;
    const known = typeof b.type === 'string' && Object.hasOwn(BLOCK_FIELDS, b.type) ? BLOCK_FIELDS[b.type]! : undefined;
    if (!known) return `${bad} has an unknown type`;
    const extra = reading ? undefined : unknownField(b, known);
    if (extra) return `${bad} has ${extra}`;
    for (const key of known) {
      if (key === 'summary' || (key === 'encrypted_content' && b[key] === undefined)) continue;
      if (typeof b[key] !== 'string') return `${bad} has no string ${key}`;
    }
    if (b.type !== 'reasoning') continue;
    if (!Array.isArray(b.summary)) return `${bad} has no summary list`;
    for (const s of b.summary as unknown[]) {
      if (!isObject(s) || s.type !== 'summary_text' || typeof s.text !== 'string') return `${bad} has a summary that is not {type: "summary_text", text}`;
      const more = reading ? undefined : unknownField(s, SUMMARY_FIELDS);
      if (more) return `${bad} has a summary with ${more}`;
    }
  }
  return undefined;
}

function partFieldsProblem(parts: readonly unknown[]): string | undefined {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Fields;
    const inner = part.type === 'image_url' ? unknownField(part.image_url as Fields, IMAGE_FIELDS) : part.type === 'file' ? unknownField(part.file as Fields, FILE_FIELDS) : undefined;
    const extra = unknownField(part, PART_FIELDS[part.type as string]!) ?? inner;
    if (extra) return `content part ${i} has ${extra}`;
    const detail = part.type === 'image_url' ? (part.image_url as Fields).detail : undefined;
    if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high') return `content part ${i} has an unknown image detail`;
  }
  return undefined;
}

/**
 * Says what is wrong with a message, or `undefined` when the store writes it: a user, assistant or tool
 * message with the fields of its role and no others. A system message is refused: a session keeps its
 * system prompt apart (`systemPrompt`), and the element never shows one in the history.
 *
 * @param reading true for a record already stored: unknown fields pass (they are left out when it is
 *   read, see {@link storedMessage}); the rest is checked as for a write.
 */
export function messageProblem(m: unknown, reading = false): string | undefined {
  if (!isObject(m)) return 'not an object';
  if (m.role === 'system') return 'a system message in the history (a session keeps its system prompt apart, as systemPrompt)';
  const known = typeof m.role === 'string' && Object.hasOwn(MESSAGE_FIELDS, m.role) ? MESSAGE_FIELDS[m.role] : undefined;
  if (!known) return 'unknown role';
  const extra = reading ? undefined : unknownField(m, known);
  if (extra) return `${m.role} message has ${extra}`;
  switch (m.role) {
    case 'user': {
      if (typeof m.content === 'string') return undefined;
      const problem = partsProblem(m.content) ?? (reading ? undefined : partFieldsProblem(m.content as unknown[]));
      return problem && `user ${problem}`;
    }
    case 'assistant': {
      if (typeof m.content !== 'string' && m.content !== null) return 'assistant content is not a string or null';
      if (m.reasoning_content !== undefined && typeof m.reasoning_content !== 'string') {
        return 'reasoning_content is not a string';
      }
      if (m.reasoning_blocks !== undefined) {
        const problem = reasoningBlocksProblem(m.reasoning_blocks, reading);
        if (problem) return problem;
      }
      if (m.tool_calls === undefined) return undefined;
      if (!Array.isArray(m.tool_calls)) return 'tool_calls is not an array';
      for (const call of m.tool_calls) {
        const problem = reading ? toolCallShapeProblem(call) : toolCallProblem(call);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      if (typeof m.tool_call_id !== 'string') return 'tool message has no tool_call_id';
      return typeof m.content === 'string' ? undefined : 'tool content is not a string';
  }
}

/** A tool call's types only (a stored record's unknown fields are left out when it is read). */
function toolCallShapeProblem(call: unknown): string | undefined {
  if (!isObject(call) || !isObject(call.function)) return toolCallProblem(call);
  return toolCallProblem({ id: call.id, type: call.type, function: { name: call.function.name, arguments: call.function.arguments } });
}

/** Says what is wrong with a list of messages (naming the first bad index), or `undefined`. */
export function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return 'messages is not an array';
  for (let i = 0; i < messages.length; i++) {
    const problem = messageProblem(messages[i]);
    if (problem) return `message ${i}: ${problem}`;
  }
  return undefined;
}

/**
 * The tool calls still waiting for their results after a message: the index of the assistant message
 * that made them and their ids. `undefined` when none wait.
 */
export type OpenCalls = { readonly from: number; readonly ids: readonly string[] } | undefined;

/**
 * One step of the tool-call rule along a conversation: the results of an assistant message's tool calls
 * follow it, one tool message per call, before any other message; a tool message answers a call that
 * waits. Resolves with the calls waiting after `message` (at `index`), or says what is wrong; `where`
 * names the messages in it (`"tree node"`). `message` must have passed {@link messageProblem}.
 */
export function followCalls(open: OpenCalls, message: ChatMessage, index: number, where = 'message'): { open: OpenCalls } | { problem: string } {
  if (message.role === 'tool') {
    const at = open ? open.ids.indexOf(message.tool_call_id) : -1;
    if (!open || at < 0) return { problem: `a tool result for ${quoted(message.tool_call_id)}, which no tool call before it waits for` };
    const ids = open.ids.filter((_, i) => i !== at);
    return { open: ids.length === 0 ? undefined : { from: open.from, ids } };
  }
  if (open) return { problem: `the tool call ${quoted(open.ids[0]!)} of ${where} ${open.from} has no result before this ${message.role} message` };
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  return { open: calls.length === 0 ? undefined : { from: index, ids: calls.map((c) => c.id) } };
}

/** The problem of calls still waiting when a conversation (or one of its branches) ends, or `undefined`. */
export function unansweredProblem(open: OpenCalls, where = 'message'): string | undefined {
  return open && `${where} ${open.from}: the tool call ${quoted(open.ids[0]!)} has no result`;
}

/**
 * Says what is wrong with a conversation's messages, one by one ({@link messageProblem}) and in their
 * order (the tool-call rule of {@link followCalls}), naming the first bad index; `undefined` when the
 * store writes it.
 */
export function conversationProblem(messages: unknown): string | undefined {
  const problem = messagesProblem(messages);
  if (problem) return problem;
  let open: OpenCalls;
  const list = messages as ChatMessage[];
  for (let i = 0; i < list.length; i++) {
    const step = followCalls(open, list[i]!, i);
    if ('problem' in step) return `message ${i}: ${step.problem}`;
    open = step.open;
  }
  return unansweredProblem(open);
}

/**
 * A stored message as the store writes it today: the same object when it has only known fields, else a
 * copy without the others (records stored before imports were checked field by field may carry them).
 * `message` must have passed {@link messageProblem} with `reading`.
 */
export function storedMessage(message: ChatMessage): ChatMessage {
  if (messageProblem(message) === undefined) return message;
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : message.content.map((part) =>
          part.type === 'text' ? { type: 'text', text: part.text }
          : part.type === 'file' ? { type: 'file', file: { filename: part.file.filename, file_data: part.file.file_data } }
          : { type: 'image_url', image_url: knownImage(part.image_url) }),
      };
    case 'assistant': {
      const out: ChatMessage = { role: 'assistant', content: message.content };
      if (message.tool_calls !== undefined) {
        out.tool_calls = message.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
      }
      if (message.reasoning_content !== undefined) out.reasoning_content = message.reasoning_content;
      if (message.reasoning_blocks !== undefined) out.reasoning_blocks = message.reasoning_blocks.map(knownBlock);
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    default:
      return message;
  }
}

function knownBlock(block: ReasoningBlock): ReasoningBlock {
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data };
  const item: ReasoningBlock = { type: 'reasoning', id: block.id, summary: block.summary.map((s) => ({ type: 'summary_text', text: s.text })) };
  if (block.encrypted_content !== undefined) item.encrypted_content = block.encrypted_content;
  return item;
}

function knownImage(image: { url: string; detail?: unknown }): { url: string; detail?: 'auto' | 'low' | 'high' } {
  const detail = image.detail;
  return detail === 'auto' || detail === 'low' || detail === 'high' ? { url: image.url, detail } : { url: image.url };
}
