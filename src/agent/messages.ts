/** OpenAI-shaped chat messages, as sent to `/v1/chat/completions` and kept in sessions. */
import type { ToolCall } from '../wire/events.js';
import type { UserContentPart } from './content-parts.js';

export interface SystemMessage {
  role: 'system';
  content: string;
}
export interface UserMessage {
  role: 'user';
  /** Text, or OpenAI's content parts (text, images, files) as they are sent (docs/architecture.md#multimodal-user-input). */
  content: string | UserContentPart[];
}
export interface AssistantMessage {
  role: 'assistant';
  /** `null` when the step had tool calls and no text (as pagent sends it). */
  content: string | null;
  tool_calls?: ToolCall[];
  /** The step's reasoning, kept and sent back as pagent does (DeepSeek-style providers). */
  reasoning_content?: string;
  /**
   * The step's reasoning as the model API returned it for sending back: Anthropic's signed `thinking` and
   * `redacted_thinking` blocks, the Responses API's `reasoning` items (with their `encrypted_content`). Each
   * API gets back only its own kind, unchanged, in the next request; Chat Completions never sees them.
   * Absent for Chat Completions steps.
   */
  reasoning_blocks?: ReasoningBlock[];
}

/** An Anthropic `thinking` block: the model's reasoning and the signature that lets it go back unchanged. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
/** An Anthropic `redacted_thinking` block: reasoning the provider encrypted; sent back as it came. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
/**
 * A Responses API `reasoning` item: its summaries and, when the request asked for
 * `include: ["reasoning.encrypted_content"]`, the encrypted reasoning that a `store: false` request needs.
 */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
}
/** Reasoning kept for the model API that produced it (see {@link AssistantMessage.reasoning_blocks}). */
export type ReasoningBlock = ThinkingBlock | RedactedThinkingBlock | ReasoningItem;
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** One message of a conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool as the provider sees it (OpenAI function tool schema). */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
