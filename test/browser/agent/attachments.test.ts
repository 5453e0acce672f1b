// Multimodal user input (docs/architecture.md#multimodal-user-input) through the real LLM client against the local scripted server:
// the user message goes out as {role: "user", content: parts} exactly; sessions keep and count parts.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { CompactingSession, Session, SlidingWindowSession, messageTokens } from '../../../src/agent/sessions/session.js';
import { IMAGE_TOKENS, IMAGE_TOKENS_LOW, type UserContentPart } from '../../../src/agent/content-parts.js';
import type { WireEvent } from '../../../src/wire/events.js';
import type { ScriptedResponse } from '../../server/replay.js';

const api = inject('apiUrl');

const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (...parts: string[]): ScriptedResponse => ({
  chunks: [chunk({ role: 'assistant', content: '' }), ...parts.map((p) => chunk({ content: p })), chunk({}, 'stop')],
});

interface Body { messages: ChatMessage[] }

async function scripted(responses: ScriptedResponse[]): Promise<{ llm: LLM; requests: () => Promise<Body[]> }> {
  const key = crypto.randomUUID();
  const res = await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  expect(res.ok).toBe(true);
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    requests: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Body[],
  };
}

// A 1×1 PNG and a small PDF-like payload, written here (not produced by the code under test).
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = `data:application/pdf;base64,${btoa('%PDF-1.4\n% hello\n'.repeat(64))}`;
const PARTS: UserContentPart[] = [
  { type: 'text', text: 'What is in these?' },
  { type: 'image_url', image_url: { url: PNG, detail: 'auto' } },
  { type: 'text', text: 'and this file' },
  { type: 'file', file: { filename: 'notes.pdf', file_data: PDF } },
];

describe('Agent with content parts', () => {
  it('sends the user message as {role: "user", content: parts} exactly and reports the joined text', async () => {
    const { llm, requests } = await scripted([text('A pixel.')]);
    const agent = new Agent({ llm });
    const events: WireEvent[] = [];
    for await (const e of agent.events(PARTS)) events.push(e);
    expect(events[0]).toEqual({ method: 'RunBegin', params: { user_input: 'What is in these?\nand this file' } });
    expect(events.at(-1)?.method).toBe('RunEnd');
    const [body] = await requests();
    // byte-compare the user message as it went over the wire
    expect(JSON.stringify(body!.messages.at(-1))).toBe(JSON.stringify({ role: 'user', content: PARTS }));
    expect(agent.session.messages[0]).toEqual({ role: 'user', content: PARTS });
  });

  it('run(), text() and wire() take parts too, and a retry of the same parts does not add them twice', async () => {
    const { llm, requests } = await scripted([text('one'), text('two'), text('three')]);
    const agent = new Agent({ llm });
    expect((await agent.run(PARTS)).content).toBe('one');
    let said = '';
    for await (const t of agent.text([{ type: 'text', text: 'again' }])) said += t;
    expect(said).toBe('two');
    const lines: string[] = [];
    for await (const line of agent.wire(PARTS)) lines.push(line);
    expect(JSON.parse(lines[0]!)).toMatchObject({ method: 'RunBegin', params: { user_input: 'What is in these?\nand this file' } });
    const bodies = await requests();
    expect(bodies[1]!.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'again' }] });
    expect(agent.session.messages.filter((m) => m.role === 'user')).toHaveLength(3);
  });

  it('redacts the API key in text parts and leaves the image data alone', async () => {
    const key = crypto.randomUUID();
    await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses: [text('ok')] }) });
    const secret = 'sk-test-1234567890abcdef1234567890';
    const llm = new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, apiKey: secret, retries: 0 });
    const agent = new Agent({ llm });
    await agent.run([{ type: 'text', text: `my key is ${secret}` }, PARTS[1]!]);
    const [body] = (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Body[];
    const sent = JSON.stringify(body!.messages);
    expect(sent).not.toContain(secret);
    expect(sent).toContain(PNG);
  });
});

describe('Agent with images that are no raster image', () => {
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>parent.__pwned = 1</script></svg>';
  const NOT_SENT = '[image not sent: its data is not a PNG, JPEG, GIF, WebP or AVIF image]';

  it('sends a data: image whose bytes are no PNG, JPEG, GIF, WebP or AVIF as a text part saying so; the session keeps it', async () => {
    const { llm, requests } = await scripted([text('one'), text('two')]);
    const agent = new Agent({ llm });
    const hostile: UserContentPart[] = [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: `data:image/svg+xml;base64,${btoa(SVG)}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${btoa(SVG)}` } },
      { type: 'image_url', image_url: { url: `data:image/svg+xml,${encodeURIComponent(SVG)}` } },
      { type: 'image_url', image_url: { url: `data:text/html;base64,${btoa('<script>parent.__pwned = 2</script>')}` } },
      { type: 'image_url', image_url: { url: PNG } },
      { type: 'image_url', image_url: { url: 'https://example.com/photo.png' } },
    ];
    await agent.run(hostile);
    await agent.run('and now?');
    const bodies = await requests();
    const expected = [
      { type: 'text', text: 'look' },
      { type: 'text', text: NOT_SENT },
      { type: 'text', text: NOT_SENT },
      { type: 'text', text: NOT_SENT },
      { type: 'text', text: NOT_SENT },
      { type: 'image_url', image_url: { url: PNG } },
      { type: 'image_url', image_url: { url: 'https://example.com/photo.png' } },
    ];
    // on every request of the conversation, not only the first
    expect(bodies.map((b) => b.messages[0])).toEqual([
      { role: 'user', content: expected },
      { role: 'user', content: expected },
    ]);
    expect(agent.session.messages[0]).toEqual({ role: 'user', content: hostile });
  });
});

describe('sessions with content parts', () => {
  it('count an image as the documented estimate, not its base64 length', () => {
    const count = (t: string): number => t.length; // one token per character, to make the figures exact
    const image: ChatMessage = { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(400_000)}` } }] };
    const low: ChatMessage = { role: 'user', content: [{ type: 'image_url', image_url: { url: PNG, detail: 'low' } }] };
    const mixed: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image_url', image_url: { url: PNG } }] };
    expect(messageTokens(image, count)).toBe(4 + 765);
    expect(IMAGE_TOKENS).toBe(765);
    expect(messageTokens(low, count)).toBe(4 + IMAGE_TOKENS_LOW);
    expect(messageTokens(mixed, count)).toBe(4 + 4 + 765);
  });

  it('keep parts through toJSON/fromJSON and a sliding window keeps an image message whole', () => {
    const session = new Session('sys');
    session.append({ role: 'user', content: PARTS }, { role: 'assistant', content: 'ok' });
    expect(Session.fromJSON(structuredClone(session.toJSON())).messages).toEqual(session.messages);
    const window = new SlidingWindowSession(undefined, { maxTokens: 1000 });
    window.append({ role: 'user', content: PARTS }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [PARTS[1]!, PARTS[1]!] });
    // two images (2 × 765) are over the budget alone: only the newest group goes
    expect(window.window()).toEqual([{ role: 'user', content: [PARTS[1]!, PARTS[1]!] }]);
  });

  it('CompactingSession never sends base64 to its summary', async () => {
    const { llm, requests } = await scripted([text('summary of the pictures')]);
    const session = new CompactingSession(undefined, { llm, compactAtTokens: 100 });
    session.append(
      { role: 'user', content: PARTS },
      { role: 'assistant', content: 'It is a pixel.' },
      { role: 'user', content: 'and now?' },
    );
    expect(session.shouldCompact).toBe(true);
    expect(await session.compact()).toBe(true);
    const [body] = await requests();
    const prompt = JSON.stringify(body!.messages);
    expect(prompt).not.toContain('base64');
    expect(prompt).toContain('[image]');
    expect(prompt).toContain('[file notes.pdf]');
    expect(prompt).toContain('What is in these?');
    expect(session.messages[0]).toEqual({ role: 'user', content: 'Summary of the earlier conversation:\nsummary of the pictures' });
  });
});
