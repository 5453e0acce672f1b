/**
 * pagent's token helpers (`pagent.tokens`): `countTokens`, `countTokensDetail` and `formatContext`,
 * on our tokenizer-free estimate (`estimateTokens`: about 4 ASCII characters a token, one token per CJK
 * character or emoji). Pass `countTokens` to plug a real tokenizer in.
 */
import type { ChatMessage, ToolSchema } from '../messages.js';
import { estimateTokens, messageTokens, type CountTokens } from './session.js';

/** Options of the token helpers. */
export interface TokenCountOptions {
  /** Tool schemas sent with each request (they count against the context too). */
  tools?: readonly ToolSchema[];
  /** The model's context window, for the share used. */
  maxTokens?: number;
  /**
   * Counts the tokens of a text.
   * @defaultValue `estimateTokens`
   */
  countTokens?: CountTokens;
}

/** Tokens per part of a request, as {@link countTokensDetail} counts them. */
export interface TokenCountDetail {
  /** Everything: messages (with per-message overhead) plus tool schemas. */
  total: number;
  system: number;
  user: number;
  assistant: number;
  tool: number;
  /** The tool schemas. */
  tools: number;
  /** How many messages were counted. */
  messages: number;
  /** The context window, when given. */
  maxTokens?: number;
}

/**
 * Counts the tokens of a text, or of a message list the way a request carries it (each message's
 * content, reasoning and tool calls plus a small per-message overhead).
 *
 * @example
 * countTokens('hello world');                       // 3
 * countTokens([{ role: 'user', content: '你好' }]);   // 6 (2 for the characters, 4 overhead)
 */
export function countTokens(input: string | readonly ChatMessage[], options: Pick<TokenCountOptions, 'countTokens'> = {}): number {
  const count = options.countTokens ?? estimateTokens;
  if (typeof input === 'string') return count(input);
  let total = 0;
  for (const m of input) total += messageTokens(m, count);
  return total;
}

/** Counts a request's tokens per role, plus its tool schemas (pagent's `count_tokens_detail`). */
export function countTokensDetail(messages: readonly ChatMessage[], options: TokenCountOptions = {}): TokenCountDetail {
  const count = options.countTokens ?? estimateTokens;
  const detail: TokenCountDetail = { total: 0, system: 0, user: 0, assistant: 0, tool: 0, tools: 0, messages: messages.length };
  for (const m of messages) detail[m.role] += messageTokens(m, count);
  for (const t of options.tools ?? []) detail.tools += count(JSON.stringify(t));
  detail.total = detail.system + detail.user + detail.assistant + detail.tool + detail.tools;
  if (options.maxTokens !== undefined) detail.maxTokens = options.maxTokens;
  return detail;
}

const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * The context usage as a few lines of text (pagent's `format_context`), from messages or a
 * {@link countTokensDetail} result:
 *
 * ```text
 * context: 1,234 / 128,000 tokens (1.0%), 14 messages
 *   system 12 · user 100 · assistant 800 · tool 300 · tools 22
 * ```
 */
export function formatContext(input: readonly ChatMessage[] | TokenCountDetail, options: TokenCountOptions = {}): string {
  const d = Array.isArray(input) ? countTokensDetail(input, options) : (input as TokenCountDetail);
  const max = options.maxTokens ?? d.maxTokens;
  const share = max ? ` / ${grouped(max)} tokens (${((100 * d.total) / max).toFixed(1)}%)` : ' tokens';
  const parts = (['system', 'user', 'assistant', 'tool', 'tools'] as const).map((k) => `${k} ${grouped(d[k])}`);
  return `context: ${grouped(d.total)}${share}, ${d.messages} message${d.messages === 1 ? '' : 's'}\n  ${parts.join(' · ')}`;
}
