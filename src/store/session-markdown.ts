/**
 * A conversation as a readable Markdown transcript (for people, not for import: `export()` is the
 * lossless form). Pure: no DOM, no IndexedDB.
 */
import type { ChatMessage } from '../agent/messages.js';
import type { SessionExport } from './records.js';

/** The headings and labels of {@link conversationToMarkdown}; English by default. */
export interface MarkdownLabels {
  user: string;
  assistant: string;
  system: string;
  /** `{name}`: the tool's name. */
  toolCall: string;
  /** `{name}`: the tool's name. */
  toolResult: string;
  reasoning: string;
  /** `{name}`: the file's name. */
  file: string;
  image: string;
}

/** Options of {@link conversationToMarkdown}. */
export interface MarkdownOptions {
  /** Headings and labels (e.g. in the reader's language). */
  labels?: Partial<MarkdownLabels>;
  /** Adds the system prompt at the top. @defaultValue false */
  systemPrompt?: boolean;
  /** Adds each answer's reasoning as a quote. @defaultValue false */
  reasoning?: boolean;
}

const EN: MarkdownLabels = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  toolCall: 'Tool call: {name}',
  toolResult: 'Tool result: {name}',
  reasoning: 'Reasoning',
  file: 'Attached file: {name}',
  image: 'Attached image',
};

/** A conversation to write: an export file's content, or just a title and messages. */
export type MarkdownSource =
  | Pick<SessionExport, 'title' | 'session'>
  | { title?: string; systemPrompt?: string | undefined; messages: readonly ChatMessage[] };

const fill = (template: string, name: string): string => template.replace('{name}', name);

/** A fenced block whose fence is longer than any backtick run inside, so the content cannot close it. */
function fence(text: string, info = ''): string {
  // a loop, not Math.max(...runs): a text of many backtick runs would pass the engine's limit on arguments
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const bar = '`'.repeat(longest + 1);
  return `${bar}${info}\n${text}\n${bar}`;
}

/** Tool arguments pretty-printed when they are JSON, else as the model wrote them. */
function argumentsBlock(args: string): string {
  try {
    return fence(JSON.stringify(JSON.parse(args), null, 2), 'json');
  } catch {
    return fence(args);
  }
}

/** A line that cannot turn into other Markdown structure (a heading keeps to one line). */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Writes a conversation as Markdown: the title as `#` heading, each message under a `##` heading with
 * its role, tool calls with their arguments as fenced JSON, tool results fenced, attachments named (their
 * data is never written). Fences grow to outlast any backticks in the text.
 *
 * @example
 * ```ts
 * const md = conversationToMarkdown(JSON.parse(await store.export(id)));
 * ```
 */
export function conversationToMarkdown(source: MarkdownSource, options: MarkdownOptions = {}): string {
  const labels = { ...EN, ...options.labels };
  const messages = 'session' in source ? source.session.messages : source.messages;
  const systemPrompt = 'session' in source ? source.session.systemPrompt : source.systemPrompt;
  const toolNames = new Map<string, string>();
  const out: string[] = [];
  const title = oneLine(source.title ?? '');
  if (title) out.push(`# ${title}`);
  if (options.systemPrompt && systemPrompt) out.push(`## ${labels.system}`, systemPrompt);
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        if (options.systemPrompt) out.push(`## ${labels.system}`, m.content);
        break;
      case 'user': {
        out.push(`## ${labels.user}`);
        if (typeof m.content === 'string') out.push(m.content);
        else
          for (const part of m.content) {
            if (part.type === 'text') out.push(part.text);
            else if (part.type === 'image_url') out.push(`*${labels.image}*`);
            else out.push(`*${fill(labels.file, oneLine(part.file.filename))}*`);
          }
        break;
      }
      case 'assistant':
        out.push(`## ${labels.assistant}`);
        if (options.reasoning && m.reasoning_content) {
          out.push(`> **${labels.reasoning}**\n${m.reasoning_content.split('\n').map((l) => `> ${l}`).join('\n')}`);
        }
        if (m.content) out.push(m.content);
        for (const call of m.tool_calls ?? []) {
          toolNames.set(call.id, call.function.name);
          out.push(`**${fill(labels.toolCall, oneLine(call.function.name))}**`, argumentsBlock(call.function.arguments));
        }
        break;
      case 'tool':
        out.push(`**${fill(labels.toolResult, oneLine(toolNames.get(m.tool_call_id) ?? m.tool_call_id))}**`, fence(m.content));
        break;
    }
  }
  return `${out.join('\n\n')}\n`;
}
