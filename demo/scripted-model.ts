/**
 * The demo's local model: an OpenAI-compatible `POST /v1/chat/completions` that streams scripted
 * answers (SSE chunks, as real providers send them), so the demo runs with no key and no network.
 *
 * The script is chosen from the last user message: "weather" → a `get_weather` tool call and then an
 * answer from its result; "time" / "date" → a `clock` call; "save a note" → a `write_file` call (when the
 * agent offers that tool: the in-browser agent with its workspace); "think" → reasoning then an answer; "fail" → a provider error mid-stream;
 * anything else → a markdown answer. Replies after a tool result summarise that result.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

interface Msg {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function?: { name?: string } }>;
}

/** The name of the tool whose result is the last message. */
function lastToolName(messages: Msg[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = messages[i]!.tool_calls;
    if (messages[i]!.role === 'assistant' && calls?.length) return calls[0]?.function?.name;
  }
  return undefined;
}

export interface ScriptedModelOptions {
  /** Delay between chunks, in ms. @defaultValue 25 */
  chunkDelayMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function lastUserText(messages: Msg[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

type Step =
  | { kind: 'text'; reasoning?: string; text: string }
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'error'; text: string; message: string };

/** Picks the next step of the script from the conversation so far. */
export function scriptedStep(messages: Msg[], toolNames: readonly string[] = []): Step {
  const last = messages[messages.length - 1];
  const user = lastUserText(messages);
  if (last?.role === 'tool') {
    const result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    const name = lastToolName(messages);
    if (name === 'clock') return { kind: 'text', text: `The clock tool says it is **${result}** (UTC).` };
    if (name === 'write_file') return { kind: 'text', text: `${result} — open the **Files** panel below to download or delete it.` };
    return {
      kind: 'text',
      text: `The tool answered:\n\n\`\`\`json\n${result}\n\`\`\`\n\nSo it is **${describeWeather(result)}** right now.`,
    };
  }
  if (/weather|天气|天気/i.test(user)) {
    const city = /in\s+([A-Z][\p{L}-]+)/u.exec(user)?.[1] ?? 'Paris';
    return { kind: 'tool', name: 'get_weather', args: { city } };
  }
  if (/\btime\b|\bdate\b|clock|几点|時間|時刻/i.test(user)) return { kind: 'tool', name: 'clock', args: {} };
  if (/save a note|write a note|笔记|メモ/i.test(user) && toolNames.includes('write_file')) {
    return { kind: 'tool', name: 'write_file', args: { path: 'notes/demo.md', content: `# Demo note\n\nSaved by the agent: ${user.slice(0, 200)}\n` } };
  }
  if (/think|reason/i.test(user)) {
    return {
      kind: 'text',
      reasoning: 'The user wants to see reasoning. I will think in a few short steps, then answer briefly.',
      text: 'After thinking it over: **42** is still the answer.',
    };
  }
  if (/fail|error/i.test(user)) {
    return { kind: 'error', text: 'Starting an answer that will not ', message: 'The scripted model failed on purpose (demo).' };
  }
  return {
    kind: 'text',
    text:
      `You said: *${user.slice(0, 200)}*\n\n` +
      'This answer comes from the **local scripted model**: no key, no network.\n\n' +
      '- Ask about the *weather in Tokyo* to see a tool call, or *what time it is* for the built-in clock\n' +
      '- With the in-browser agent, ask me to *save a note* to see a file in the workspace\n' +
      '- Ask me to *think* to see reasoning\n' +
      '- Ask me to *fail* to see an error\n\n' +
      '| source | path |\n| --- | --- |\n| wire server | `/demo/api/chat` |\n| model | `/demo/v1/chat/completions` |\n',
  };
}

function describeWeather(json: string): string {
  try {
    const v = JSON.parse(json) as { city?: string; temp?: number; unit?: string };
    return `${v.temp}° ${v.unit ?? ''} in ${v.city}`.replace(/\s+/g, ' ');
  } catch {
    return 'unclear';
  }
}

/** Serves one scripted streaming completion. */
export async function handleScriptedCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  options: ScriptedModelOptions = {},
): Promise<void> {
  const delay = options.chunkDelayMs ?? 25;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let body: { model?: string; messages?: Msg[]; tools?: Array<{ function?: { name?: string } }> };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
  } catch {
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'Body is not JSON' } }));
    return;
  }
  const model = body.model ?? 'scripted';
  const step = scriptedStep(body.messages ?? [], (body.tools ?? []).map((t) => t.function?.name ?? ''));
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  const id = `chatcmpl-demo-${Date.now()}`;
  const send = async (delta: Record<string, unknown>, finish: string | null = null): Promise<void> => {
    if (closed) return;
    const chunk = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    await sleep(delay);
  };
  await send({ role: 'assistant', content: '' });
  if (step.kind === 'tool') {
    const args = JSON.stringify(step.args);
    await send({ tool_calls: [{ index: 0, id: `call_demo_${Date.now()}`, type: 'function', function: { name: step.name, arguments: '' } }] });
    for (let i = 0; i < args.length; i += 6) await send({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 6) } }] });
    await send({}, 'tool_calls');
  } else if (step.kind === 'error') {
    for (const w of words(step.text)) await send({ content: w });
    if (!closed) res.write(`data: ${JSON.stringify({ error: { message: step.message, type: 'server_error' } })}\n\n`);
    res.end();
    return;
  } else {
    if (step.reasoning) for (const w of words(step.reasoning)) await send({ reasoning_content: w });
    for (const w of words(step.text)) await send({ content: w });
    await send({}, 'stop');
  }
  if (!closed) {
    const usage = { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 };
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}\n\n`);
    res.write('data: [DONE]\n\n');
  }
  res.end();
}
