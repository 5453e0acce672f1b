/**
 * The demo's local model: an OpenAI-compatible `POST /v1/chat/completions` that streams scripted
 * answers (SSE chunks, as real providers send them), so the demo runs with no key and no network.
 *
 * The script is chosen from the last user message, in English, Simplified Chinese or Japanese (the demo's
 * sample questions in each): the weather ("weather" / 天气 / 天気) → a `get_weather` tool call and then an
 * answer from its result; a reminder ("remind" / 提醒 / リマインド) → a `create_reminder` call, which needs
 * the user's approval; "time" / "date" (几点 / 時間) → a `clock` call; "save a note" (笔记 / メモ) → a
 * `write_file` call (when the agent offers that tool: the in-browser agent with its workspace); "where am I"
 * (我在哪 / どこ) → a `region` call (when offered: the page's own tool behind the demo's remote back ends); "think"
 * (思考 / 考えて) → reasoning then an answer; "fail" (失败 / 失敗) → a provider error mid-stream; anything
 * else → a markdown answer. It answers in the language of the question.
 *
 * A request whose last message is an assistant message (an answer a reload cut, sent back by Continue)
 * is continued: the answer the script gives for the conversation before it, from where that text stops.
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

/** Streamed pieces: words for spaced scripts, a few characters at a time for Chinese and Japanese. */
export function pieces(text: string): string[] {
  return text.match(/[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef、。「」（）！？]{1,3}|\S+\s*|\s+/gu) ?? [];
}

function lastUserText(messages: Msg[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

type Lang = 'en' | 'zh' | 'ja';

/** Japanese when there is kana, Chinese when there are only Han characters, else English. */
export function languageOf(text: string): Lang {
  if (/[\u3040-\u30ff]/u.test(text)) return 'ja';
  if (/[\u3400-\u9fff]/u.test(text)) return 'zh';
  return 'en';
}

/** The cities the weather tool knows, by their names in each language. */
const CITIES: Array<{ en: string; zh: string; ja: string }> = [
  { en: 'Tokyo', zh: '东京', ja: '東京' },
  { en: 'Paris', zh: '巴黎', ja: 'パリ' },
  { en: 'Berlin', zh: '柏林', ja: 'ベルリン' },
  { en: 'Beijing', zh: '北京', ja: '北京' },
];

/**
 * The city a question asks about, named as a model would in the question's language (the weather card shows
 * it): a known city by its name in `lang`, else the name written before 天气 / の天気, or after "in".
 */
function cityIn(text: string, lang: Lang): string | undefined {
  for (const c of CITIES) if (text.includes(c.zh) || text.includes(c.ja) || new RegExp(`\\b${c.en}\\b`, 'i').test(text)) return c[lang];
  return /([\p{Script=Han}\p{Script=Katakana}ー]{1,8}?)的?(?:天气|の天気)/u.exec(text)?.[1] ?? /in\s+([A-Z][\p{L}-]+)/u.exec(text)?.[1];
}

const cityName = (city: string, lang: Lang): string => {
  const c = CITIES.find((x) => x.en === city);
  return c ? c[lang] : city;
};

type Step =
  | { kind: 'text'; reasoning?: string | undefined; text: string }
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'error'; text: string; message: string };

const T = {
  toolSaid: { en: 'The tool answered:', zh: '工具返回：', ja: 'ツールの結果：' },
  weather: {
    en: (city: string, temp: string) => `So it is **${temp} in ${city}** right now.`,
    zh: (city: string, temp: string) => `所以${city}现在是 **${temp}**。`,
    ja: (city: string, temp: string) => `${city}は今 **${temp}** です。`,
  },
  clock: {
    en: (time: string) => `The clock tool says it is **${time}** (UTC).`,
    zh: (time: string) => `时钟工具显示现在是 **${time}**（UTC）。`,
    ja: (time: string) => `時計ツールによると、現在は **${time}**（UTC）です。`,
  },
  saved: {
    en: (result: string) => `${result} — open the **Files** panel below to download or delete it.`,
    zh: (result: string) => `${result}——打开下方的**文件**面板可以下载或删除它。`,
    ja: (result: string) => `${result} — 下の**ファイル**パネルからダウンロードや削除ができます。`,
  },
  region: {
    en: (result: string) => `Your browser says: \`${result}\` — the page ran \`region\` and sent its result back.`,
    zh: (result: string) => `你的浏览器说：\`${result}\`——页面运行了 \`region\` 并把结果发了回来。`,
    ja: (result: string) => `ブラウザーによると：\`${result}\` — ページが \`region\` を実行して結果を返しました。`,
  },
  reminderSet: {
    en: 'Done: the reminder is set.',
    zh: '好的，提醒已设置。',
    ja: 'リマインダーを設定しました。',
  },
  reminderDenied: {
    en: 'You declined, so no reminder was set.',
    zh: '你拒绝了，所以没有设置提醒。',
    ja: '拒否されたので、リマインダーは設定しませんでした。',
  },
  reminderNoApprover: {
    en: 'This source cannot ask you for approval (the agent runs on the server), so no reminder was set. Choose an in-browser agent to approve or deny it.',
    zh: '这个来源无法征求你的批准（代理运行在服务器上），所以没有设置提醒。请选择浏览器内代理来批准或拒绝。',
    ja: 'このソースでは承認を求められないため（エージェントはサーバー上で動いています）、リマインダーは設定しませんでした。承認・拒否を試すにはブラウザー内エージェントを選んでください。',
  },
  reasoning: {
    en: 'The user wants to see reasoning. I will think in a few short steps, then answer briefly.',
    zh: '用户想看到思考过程。我先分几步简短地思考，然后简要回答。',
    ja: 'ユーザーは推論を見たがっている。いくつかの短いステップで考えてから、簡潔に答えよう。',
  },
  thought: {
    en: 'After thinking it over: **42** is still the answer.',
    zh: '想了想之后：答案仍然是 **42**。',
    ja: 'よく考えた結果：答えはやはり **42** です。',
  },
  failStart: { en: 'Starting an answer that will not ', zh: '开始一个不会完成的', ja: '最後まで終わらない回答を' },
  failMessage: {
    en: 'The scripted model failed on purpose (demo).',
    zh: '脚本模型故意失败了（演示）。',
    ja: 'スクリプトモデルがわざと失敗しました（デモ）。',
  },
  echo: {
    en: (user: string) =>
      `You said: *${user}*\n\nThis answer comes from the **local scripted model**: no key, no network.\n\n` +
      '- Ask about the *weather in Tokyo* to see a tool call, or *what time it is* for the built-in clock\n' +
      '- Ask for a *reminder* to approve or deny a tool\n- With the in-browser agent, ask me to *save a note* to see a file in the workspace\n' +
      '- Ask me to *think* to see reasoning\n- Ask me to *fail* to see an error\n\n' +
      '| source | path |\n| --- | --- |\n| wire server | `/demo/api/chat` |\n| model | `/demo/v1/chat/completions` |\n',
    zh: (user: string) =>
      `你说：*${user}*\n\n这个回答来自**本地脚本模型**：无需密钥，无需联网。\n\n` +
      '- 问问*东京的天气*，看看工具调用\n- 让我*提醒*你，试试批准或拒绝工具\n- 让我*思考*，看看思考过程\n- 让我*失败*，看看错误\n',
    ja: (user: string) =>
      `あなたの入力：*${user}*\n\nこの回答は**ローカルのスクリプトモデル**からです。キーもネットワークも不要です。\n\n` +
      '- *東京の天気*を聞くとツール呼び出し\n- *リマインド*を頼むとツールの承認・拒否\n- *考えて*と頼むと推論\n- *失敗*を頼むとエラー\n',
  },
};

/** Picks the next step of the script from the conversation so far. */
export function scriptedStep(messages: Msg[], toolNames: readonly string[] = []): Step {
  const last = messages[messages.length - 1];
  const user = lastUserText(messages);
  const lang = languageOf(user);
  if (last?.role === 'tool') {
    const result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    const name = lastToolName(messages);
    if (name === 'clock') return { kind: 'text', text: T.clock[lang](result) };
    if (name === 'write_file') return { kind: 'text', text: T.saved[lang](result) };
    if (name === 'region') return { kind: 'text', text: T.region[lang](result) };
    if (/no approve function/.test(result)) return { kind: 'text', text: T.reminderNoApprover[lang] };
    if (/denied/.test(result)) return { kind: 'text', text: T.reminderDenied[lang] };
    if (/"in_minutes"/.test(result)) return { kind: 'text', text: T.reminderSet[lang] };
    return { kind: 'text', text: `${T.toolSaid[lang]}\n\n\`\`\`json\n${result}\n\`\`\`\n\n${describeWeather(result, lang)}` };
  }
  if (/weather|天气|天気/i.test(user)) {
    return { kind: 'tool', name: 'get_weather', args: { city: cityIn(user, lang) ?? cityName('Paris', lang) } };
  }
  if (/remind|提醒|リマインド/i.test(user)) {
    return { kind: 'tool', name: 'create_reminder', args: { text: user.slice(0, 120), in_minutes: 60 } };
  }
  if (/\btime\b|\bdate\b|clock|几点|時間|時刻/i.test(user) && !/remind|提醒|リマインド/i.test(user)) return { kind: 'tool', name: 'clock', args: {} };
  if (/save a note|write a note|笔记|メモ/i.test(user) && toolNames.includes('write_file')) {
    return { kind: 'tool', name: 'write_file', args: { path: 'notes/demo.md', content: `# Demo note\n\nSaved by the agent: ${user.slice(0, 200)}\n` } };
  }
  if (/where am i|我在哪|どこ/i.test(user) && toolNames.includes('region')) return { kind: 'tool', name: 'region', args: {} };
  if (/think|reason|思考|考えて|推論/i.test(user)) {
    return { kind: 'text', reasoning: T.reasoning[lang], text: T.thought[lang] };
  }
  if (/fail|error|失败|失敗|エラー/i.test(user)) {
    return { kind: 'error', text: T.failStart[lang], message: T.failMessage[lang] };
  }
  return { kind: 'text', text: T.echo[lang](user.slice(0, 200)) };
}

function describeWeather(json: string, lang: Lang): string {
  try {
    const v = JSON.parse(json) as { city?: string; temp?: number; unit?: string };
    const temp = lang === 'en' ? `${v.temp}° ${v.unit ?? ''}`.trim() : `${v.temp}°C`;
    return T.weather[lang](cityName(v.city ?? '', lang), temp);
  } catch {
    return '';
  }
}

/** The text of a trailing assistant message (a partial answer to continue), if the request ends with one. */
function continuedText(messages: Msg[]): string | undefined {
  const last = messages.at(-1);
  return last?.role === 'assistant' && typeof last.content === 'string' && !last.tool_calls?.length ? last.content : undefined;
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
  const messages = body.messages ?? [];
  const partial = continuedText(messages);
  const step = scriptedStep(partial === undefined ? messages : messages.slice(0, -1), (body.tools ?? []).map((t) => t.function?.name ?? ''));
  if (partial !== undefined && step.kind === 'text') {
    // the answer goes on from where the partial one stops (its reasoning was given already)
    step.reasoning = undefined;
    step.text = step.text.startsWith(partial) ? step.text.slice(partial.length) : step.text;
  }
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
    for (const w of pieces(step.text)) await send({ content: w });
    if (!closed) res.write(`data: ${JSON.stringify({ error: { message: step.message, type: 'server_error' } })}\n\n`);
    res.end();
    return;
  } else {
    if (step.reasoning) for (const w of pieces(step.reasoning)) await send({ reasoning_content: w });
    for (const w of pieces(step.text)) await send({ content: w });
    await send({}, 'stop');
  }
  if (!closed) {
    const usage = { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 };
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}\n\n`);
    res.write('data: [DONE]\n\n');
  }
  res.end();
}
