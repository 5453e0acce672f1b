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
}
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
