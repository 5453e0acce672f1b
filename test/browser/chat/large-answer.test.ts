/**
 * Large stored content: an answer too big for one task is drawn a slice per task (yielding to the browser
 * in between) and ends with the DOM of the whole text; a text past the draw limit waits for "Show more";
 * code is highlighted in slices too; switching conversations, a replaced answer or a removed element stops
 * what was still waiting. Figures (how long the page is blocked) are measured apart, not asserted here.
 */
import { html, render, type RootPart } from 'lit';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { createAnswerRenderer, type AnswerRenderer } from '../../../src/chat/messages/answer.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { renderMarkdown } from '../../../src/chat/markdown.js';
import { loadEntities } from '../../../src/chat/markdown/entities.js';
import { DRAW_CHARS } from '../../../src/chat/messages/show-more.js';
import { streamText } from '../../../src/chat/messages/stream-text.js';
import type { ChatStore } from '../../../src/chat/conversations/controller.js';
import { SliceScheduler, sliceScheduler } from '../../../src/chat/slices/scheduler.js';
import { FEED_PIECE } from '../../../src/chat/slices/text-feed.js';
import { SLICE_CHARS, TaskBudget, taskBudget } from '../../../src/chat/task-budget.js';
import type { TextBlock } from '../../../src/chat/timeline/items.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { userEvent } from 'vitest/browser';
import { $, $$, answers, chatFixture, pushAll, textRun, until } from './helpers.js';
import { answerHtml, renderThroughStream, specExamples } from './markdown-conformance.js';

type Engine = typeof import('../../../src/chat/markdown/highlighter.js');

/** Markdown of every common kind, `bytes` long or a little more. */
function corpus(bytes: number): string {
  const unit = [
    '## A heading with `code` and *emphasis*\n\n',
    'A paragraph with **strong text**, _emphasis_, a [link](https://example.com/page) and `code`, ',
    'then https://example.org/autolink and a second line\nthat continues the paragraph.\n\n',
    '- an item with *emphasis*\n- an item with `code`\n  - a nested item\n\n',
    '1. one\n2. two\n\n> a quote with **bold**\n\n',
    '| a | b |\n| --- | --- |\n| 1 | two |\n\n',
    '```\nplain code\n```\n\n',
  ].join('');
  return unit.repeat(Math.ceil(bytes / unit.length));
}

/** A store holding the given conversations (the parts of `createSessionStore()` the element uses). */
function memoryStore(conversations: Record<string, ChatMessage[]>): ChatStore {
  return {
    list: async () => Object.keys(conversations).map((id, i) => ({ id, title: id, updatedAt: 1000 - i, messageCount: conversations[id]!.length })),
    load: async (id) => (conversations[id] ? { messages: conversations[id]! } : undefined),
    rename: async () => undefined,
    delete: async () => undefined,
  };
}

async function openConversation(el: PagentChat, id: string): Promise<void> {
  await until(() => $$(el, '[part~="session-open"]').length > 0, 'the conversation list');
  const row = $$(el, '[part~="session"]').find((r) => r.dataset['sessionId'] === id)!;
  row.querySelector<HTMLElement>('[part~="session-open"]')!.click();
  await until(() => $$(el, '[part~="user"]').length > 0 && $(el, '[part~="answer-text"]') !== null, `conversation ${id}`);
  await el.updateComplete;
}

/** The markdown answer's DOM as `renderMarkdown` builds it from the whole text in one go. */
function oneShot(text: string): string {
  const div = document.createElement('div');
  renderMarkdown(div, text, { allowImage: () => true });
  return answerHtml(div);
}

/**
 * A yield the test lets go of, one task at a time; `appends` records the characters each task handed to
 * the renderer (a new entry at every yield).
 */
function steppedScheduler(limit: number) {
  const waiting: Array<() => void> = [];
  const perTask: number[] = [0];
  const scheduler = new SliceScheduler({
    budget: new TaskBudget(limit),
    sliceMs: Infinity,
    yieldToNext: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
      }),
  });
  return {
    scheduler,
    perTask,
    get waiting() {
      return waiting.length;
    },
    count(text: string) {
      perTask[perTask.length - 1]! += text.length;
    },
    async next(): Promise<void> {
      perTask.push(0);
      for (const resolve of waiting.splice(0)) resolve();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

/** A renderer factory for `streamText` that hands every text appended to `onAppend` too. */
function recordingRenderer(onAppend: (text: string) => void): (t: HTMLElement, signal: AbortSignal) => AnswerRenderer {
  return (t, signal) => {
    const md = createAnswerRenderer(t, { signal, allowImage: () => true });
    return {
      append: (text) => {
        onAppend(text);
        md.append(text);
      },
      end: () => md.end(),
    };
  };
}

/** Renders `block` through `streamText` into a fresh element, counting what each task appends. */
function drawBlock(
  block: TextBlock,
  stepper: ReturnType<typeof steppedScheduler>,
  limit = Infinity,
): { target: HTMLElement; host: HTMLElement; draw: (b: TextBlock, l?: number) => RootPart } {
  const host = place(document.createElement('div'));
  const factory = recordingRenderer((text) => stepper.count(text));
  const draw = (b: TextBlock, l = limit): RootPart =>
    render(html`<div class="text" ${streamText(b, false, factory, { limit: l, scheduler: stepper.scheduler })}></div>`, host);
  draw(block);
  return { target: host.firstElementChild as HTMLElement, host, draw };
}

/**
 * Streams an answer through `streamText` into a fresh element, a render per delta, recording every text
 * handed to the renderer.
 */
function streamBlock(stepper: ReturnType<typeof steppedScheduler>, limit = Infinity) {
  const host = place(document.createElement('div'));
  const appends: string[] = [];
  const chunks: string[] = [];
  let length = 0;
  const factory = recordingRenderer((text) => appends.push(text));
  const draw = (streaming: boolean, l = limit): void => {
    render(html`<div class="text" ${streamText({ chunks, length }, streaming, factory, { limit: l, scheduler: stepper.scheduler })}></div>`, host);
  };
  draw(true);
  return {
    target: host.firstElementChild as HTMLElement,
    appends,
    /** Everything handed to the renderer so far. */
    drawn: () => appends.join(''),
    push(delta: string): void {
      chunks.push(delta);
      length += delta.length;
      draw(true);
    },
    /** The run's end, with the draw limit `l`. */
    end: (l = limit): void => draw(false, l),
  };
}

/** Spends the rest of the stepped queue's task budget, as earlier work in the task does. */
const spendTask = (stepper: ReturnType<typeof steppedScheduler>): void => {
  stepper.scheduler.budget.used = stepper.scheduler.budget.limit;
};

const block = (text: string): TextBlock => ({ chunks: [text], length: text.length });
const blockTextOf = (b: TextBlock): string => b.chunks.join('');

/** Lets the stepped queue run until `target` has nothing left to draw. */
async function drain(target: Element, stepper: ReturnType<typeof steppedScheduler>): Promise<void> {
  while (target.hasAttribute('aria-busy')) {
    await until(() => stepper.waiting > 0, 'a slice');
    await stepper.next();
  }
}

/** Records, in the task that first renders an answer, how much of it is drawn and whether it is busy. */
function watchFirstDraw(el: PagentChat): { value?: { length: number; busy: boolean } } {
  const seen: { value?: { length: number; busy: boolean } } = {};
  const observer = new MutationObserver(() => {
    const answer = el.shadowRoot!.querySelector('[part~="answer-text"]');
    if (!answer || seen.value) return;
    seen.value = { length: answer.textContent!.length, busy: answer.getAttribute('aria-busy') === 'true' };
    observer.disconnect();
  });
  observer.observe(el.shadowRoot!, { subtree: true, childList: true });
  return seen;
}

beforeAll(async () => {
  await loadEntities();
});

/** Elements the tests put in the page themselves (fixtures clean up after themselves). */
const placed: Element[] = [];
const place = <E extends Element>(e: E): E => {
  document.body.append(e);
  placed.push(e);
  return e;
};

afterEach(() => {
  vi.restoreAllMocks();
  for (const e of placed.splice(0)) e.remove();
});

describe('a large answer is drawn in slices', () => {
  it('opens a stored answer bigger than a task budget partly drawn and busy, then draws the rest in later tasks to the DOM of the whole text', async () => {
    const text = corpus(5 * SLICE_CHARS);
    const el = await chatFixture((c) => (c.store = memoryStore({ big: [{ role: 'user', content: 'q' }, { role: 'assistant', content: text }] })));
    const first = watchFirstDraw(el);
    await openConversation(el, 'big');
    const answer = $(el, '[part~="answer-text"]')!;
    // the task that rendered the conversation drew at most one task's budget of it, and said it was busy
    expect(first.value).toEqual({ length: expect.any(Number), busy: true });
    expect(first.value!.length).toBeLessThanOrEqual(SLICE_CHARS);
    await until(() => !answer.hasAttribute('aria-busy'), 'the whole answer drawn');
    expect(answerHtml(answer)).toBe(oneShot(text));
    expect(sliceScheduler.idle).toBe(true);
  });

  it('never hands a task more than its budget, yields before every slice, and takes linearly more slices for more text', async () => {
    const slices = async (bytes: number): Promise<number[]> => {
      const stepper = steppedScheduler(16 * 1024);
      const { target } = drawBlock(block(corpus(bytes)), stepper);
      // the task that rendered it drew what fit in its budget; the rest waits for the queue's yields
      expect(stepper.perTask[0]).toBeLessThanOrEqual(16 * 1024);
      await until(() => stepper.waiting === 1, 'the slice queue');
      while (target.hasAttribute('aria-busy')) {
        expect(stepper.waiting).toBe(1); // one yield before each slice
        await stepper.next();
      }
      return stepper.perTask.filter((n) => n > 0);
    };
    const small = await slices(160 * 1024);
    const large = await slices(480 * 1024);
    for (const task of [...small, ...large]) expect(task).toBeLessThanOrEqual(16 * 1024);
    // about 16 kB a task (a slice ends at a line end), three times the slices for three times the text
    expect(small.length).toBeGreaterThanOrEqual(10);
    expect(small.length).toBeLessThanOrEqual(12);
    expect(large.length / small.length).toBeCloseTo(3, 0);
  }, 60_000);

  it('draws no slice piece larger than FEED_PIECE, and a slice stops at its time limit', async () => {
    let clock = 0;
    const scheduler = new SliceScheduler({ budget: new TaskBudget(100 * 1024), sliceMs: 5, now: () => clock });
    const pieces: number[] = [];
    const host = place(document.createElement('div'));
    const factory = (t: HTMLElement, signal: AbortSignal): AnswerRenderer => {
      const md = createAnswerRenderer(t, { signal });
      return {
        append: (text) => {
          pieces.push(text.length);
          clock += 1; // every append takes 1 ms
          md.append(text);
        },
        end: () => md.end(),
      };
    };
    const text = corpus(200 * 1024);
    render(html`<div ${streamText(block(text), false, factory, { scheduler })}></div>`, host);
    const target = host.firstElementChild!;
    await until(() => !target.hasAttribute('aria-busy'), 'drawn');
    expect(Math.max(...pieces)).toBeLessThanOrEqual(FEED_PIECE);
    // 5 appends a slice at 1 ms each
    expect(scheduler.stats.slices).toBeGreaterThanOrEqual(Math.floor(pieces.length / 5));
    expect(answerHtml(target)).toBe(oneShot(text));
  });

  it('ends with the DOM of the whole text for the CommonMark spec examples put together, whatever the slices', async () => {
    const text = [
      ...specExamples().map((e) => e.markdown),
      '```ts\n' + 'const x: number = 1; // one\n'.repeat(400) + '```\n',
      '$$x^2$$ and $y$\n',
    ].join('\n\n');
    for (const budget of [1000, 4096, 30_000]) {
      const stepper = steppedScheduler(budget);
      const { target } = drawBlock(block(text), stepper);
      await drain(target, stepper);
      expect(answerHtml(target), `slices of ${budget}`).toBe(renderThroughStream([text]));
    }
  });

  it('keeps a streamed answer on the direct path: each delta, arriving in a task of its own, is drawn in its render, never queued', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('q', []).slice(0, 2));
    const text = corpus(100 * 1024);
    const deltas = text.match(/[\s\S]{1,1024}/g)!;
    // records are kept in the callback: once delivered to it, takeRecords() no longer returns them
    const busy: Element[] = [];
    new MutationObserver((records) => busy.push(...records.map((r) => r.target as Element))).observe(el.shadowRoot!, {
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
    for (const delta of deltas) {
      // as a network chunk does
      await new Promise((r) => setTimeout(r, 0));
      el.push({ method: 'TextDelta', params: { text: delta } });
      await el.updateComplete;
    }
    await pushAll(el, textRun('q', [text]).slice(-3));
    // nothing waited (a text that waits makes its answer busy), and all of it is drawn by the last render
    expect(busy.filter((target) => target.matches('[part~="answer-text"]'))).toEqual([]);
    expect(answerHtml($(el, '[part~="answer-text"]')!)).toBe(oneShot(text));
  }, 60_000);

  it('draws a delta in its render when the task before it spent the whole budget: that work is not charged to the next task', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('q', []).slice(0, 2));
    // another answer's drawing fills a task (a message); the network read with the delta (a timer) was
    // already waiting behind it
    let spent = false;
    await new Promise<void>((done) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        spent = taskBudget.tryNow(SLICE_CHARS);
      };
      channel.port2.postMessage(null);
      setTimeout(() => {
        el.push({ method: 'TextDelta', params: { text: 'the **answer**' } });
        void el.updateComplete.then(() => done());
      });
    });
    expect(spent).toBe(true);
    const answer = $(el, '[part~="answer-text"]')!;
    expect(answer.hasAttribute('aria-busy')).toBe(false);
    expect(answer.textContent).toBe('the answer');
  });

  it('draws a new run at once while a stored answer is still being drawn', async () => {
    const text = corpus(400 * 1024);
    const el = await chatFixture((c) => (c.store = memoryStore({ big: [{ role: 'user', content: 'q' }, { role: 'assistant', content: text }] })));
    await openConversation(el, 'big');
    const stored = $(el, '[part~="answer-text"]')!;
    expect(stored.getAttribute('aria-busy')).toBe('true');
    await pushAll(el, textRun('next', ['the new **answer**']).slice(0, 3));
    expect(answers(el).at(-1)).toBe('the new answer');
    expect(stored.getAttribute('aria-busy')).toBe('true');
    await until(() => !stored.hasAttribute('aria-busy'), 'the stored answer drawn', 6000);
    expect(answerHtml(stored)).toBe(oneShot(text));
  }, 60_000);
});

describe('a streamed answer after text that waited for the slice queue', () => {
  it('draws a refused delta through the queue, then each later delta in its own render, and the end in the render after the run ends', async () => {
    const stepper = steppedScheduler(1 << 20);
    const s = streamBlock(stepper);
    const text = corpus(20 * 1024);
    const deltas = text.match(/[\s\S]{1,1000}/g)!;
    s.push(deltas[0]!);
    expect(s.appends).toEqual([deltas[0]]);
    spendTask(stepper);
    s.push(deltas[1]!);
    expect(s.appends).toEqual([deltas[0]]);
    expect(s.target.getAttribute('aria-busy')).toBe('true');
    await drain(s.target, stepper);
    expect(s.drawn()).toBe(deltas[0]! + deltas[1]!);
    for (const delta of deltas.slice(2)) {
      s.push(delta);
      expect(s.appends.at(-1)).toBe(delta);
      expect(s.target.hasAttribute('aria-busy')).toBe(false);
    }
    s.end();
    expect(s.target.hasAttribute('aria-busy')).toBe(false);
    expect(answerHtml(s.target)).toBe(oneShot(text));
    expect(stepper.waiting).toBe(0);
  });

  it('draws no more than the limit in all when text goes through the queue, then at once, then through the queue again', async () => {
    const stepper = steppedScheduler(1 << 20);
    const limit = 9500;
    const s = streamBlock(stepper, limit);
    const text = corpus(30 * 1024);
    const deltas = text.match(/[\s\S]{1,1000}/g)!;
    const queued = async (delta: string): Promise<void> => {
      spendTask(stepper);
      s.push(delta);
      await drain(s.target, stepper);
    };
    await queued(deltas[0]!);
    for (const delta of deltas.slice(1, 5)) {
      s.push(delta);
      expect(s.appends.at(-1)).toBe(delta);
    }
    await queued(deltas[5]!);
    // drawn at once while the answer is within the limit; the delta that crosses it, and all after, wait
    for (const delta of deltas.slice(6)) s.push(delta);
    s.end();
    await drain(s.target, stepper);
    expect(s.drawn()).toBe(text.slice(0, limit));
    expect(s.target.hasAttribute('aria-busy')).toBe(false);
    // "Show more": the rest, and the end
    s.end(Infinity);
    await drain(s.target, stepper);
    expect(s.drawn()).toBe(text);
    expect(answerHtml(s.target)).toBe(oneShot(text));
  });

  it('puts a delta that arrives while the queue still holds text behind it, and draws at once again only once it has drawn that', async () => {
    const stepper = steppedScheduler(4 * 1024);
    const s = streamBlock(stepper);
    const text = corpus(20 * 1024);
    const burst = text.slice(0, 16 * 1024);
    const deltas = text.slice(burst.length).match(/[\s\S]{1,500}/g)!;
    // a burst bigger than the task's budget
    s.push(burst);
    expect(s.appends).toEqual([]);
    await until(() => stepper.waiting > 0, 'a slice');
    await stepper.next();
    const first = s.drawn();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(burst.length);
    // a new task, its budget whole: the delta would fit, but the burst's rest is still waiting
    expect(stepper.scheduler.budget.used).toBe(0);
    s.push(deltas[0]!);
    expect(s.drawn()).toBe(first);
    expect(s.target.getAttribute('aria-busy')).toBe('true');
    await drain(s.target, stepper);
    expect(s.drawn()).toBe(burst + deltas[0]!);
    for (const delta of deltas.slice(1)) {
      s.push(delta);
      expect(s.appends.at(-1)).toBe(delta);
    }
    s.end();
    expect(s.target.hasAttribute('aria-busy')).toBe(false);
    expect(answerHtml(s.target)).toBe(oneShot(text));
  });

  it('where the browser has no scheduler.postTask, draws the deltas after one charged for the task before it in their render, and the end in the render after the run ends', async () => {
    // the budget starts again on a timer, queued behind the network read already waiting
    vi.stubGlobal('scheduler', undefined);
    try {
      const el = await chatFixture();
      await pushAll(el, textRun('q', []).slice(0, 2));
      const text = corpus(8 * 1024);
      const deltas = text.match(/[\s\S]{1,500}/g)!;
      await new Promise<void>((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          taskBudget.tryNow(SLICE_CHARS);
        };
        channel.port2.postMessage(null);
        setTimeout(() => {
          el.push({ method: 'TextDelta', params: { text: deltas[0]! } });
          void el.updateComplete.then(() => done());
        });
      });
      const answer = $(el, '[part~="answer-text"]')!;
      expect(answer.getAttribute('aria-busy')).toBe('true');
      await until(() => !answer.hasAttribute('aria-busy'), 'the delta that waited drawn');
      const busy: Element[] = [];
      new MutationObserver((records) => busy.push(...records.map((r) => r.target as Element))).observe(answer, {
        attributes: true,
        attributeFilter: ['aria-busy'],
      });
      for (const delta of deltas.slice(1)) {
        await new Promise((r) => setTimeout(r, 0));
        el.push({ method: 'TextDelta', params: { text: delta } });
        await el.updateComplete;
      }
      await pushAll(el, textRun('q', [text]).slice(-3));
      expect(answer.hasAttribute('aria-busy')).toBe(false);
      expect(answerHtml(answer)).toBe(oneShot(text));
      expect(busy).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('what is drawn of a text past the draw limit', () => {
  it('draws up to the limit, and more with each raise, ending with the DOM of the whole text', async () => {
    const text = corpus(100 * 1024);
    const stepper = steppedScheduler(1 << 30);
    const b = block(text);
    const drawn = (): number => stepper.perTask.reduce((x, y) => x + y, 0);
    const { target, draw } = drawBlock(b, stepper, 30_000);
    await drain(target, stepper);
    expect(drawn()).toBe(30_000);
    // the same block with a higher limit: drawing goes on where it stood
    draw(b, 60_000);
    await drain(target, stepper);
    expect(drawn()).toBe(60_000);
    draw(b, Infinity);
    await drain(target, stepper);
    expect(drawn()).toBe(text.length);
    expect(answerHtml(target)).toBe(oneShot(text));
  });

  it('shows the first 2 MiB of a longer answer with "Show more", draws the rest on a click, and copies all of it', async () => {
    const paragraph = `${'word '.repeat(200)}\n\n`;
    const text = paragraph.repeat(Math.ceil((DRAW_CHARS + 50_000) / paragraph.length));
    const el = await chatFixture((c) => (c.store = memoryStore({ long: [{ role: 'user', content: 'q' }, { role: 'assistant', content: text }] })));
    await openConversation(el, 'long');
    const answer = $(el, '[part~="answer-text"]')!;
    await until(() => !answer.hasAttribute('aria-busy'), 'the first part drawn', 6000);
    const drawn = answer.textContent!.length;
    expect(drawn).toBeGreaterThan(DRAW_CHARS * 0.9);
    expect(drawn).toBeLessThan(text.length * 0.99);
    const more = $(el, '[part~="show-more"]')!;
    expect(more.textContent).toBe('Show more');
    more.click();
    await el.updateComplete;
    await until(() => !answer.hasAttribute('aria-busy'), 'the rest drawn', 6000);
    expect($(el, '[part~="show-more"]')).toBeNull();
    expect(answerHtml(answer)).toBe(oneShot(text));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await until(() => $(el, '[part~="message-copy-button"]') !== null, 'the copy action');
    $$(el, '[part~="message-copy-button"]').at(-1)!.click();
    await until(() => writeText.mock.calls.length > 0, 'copied');
    expect(writeText).toHaveBeenCalledWith(text);
  }, 60_000);
});

describe('search and scrolling with a large answer', () => {
  let store: SessionStore | undefined;
  afterEach(() => store?.close());

  it('opens a search hit below a large answer and keeps it in view while the answer above draws', async () => {
    store = createSessionStore({ name: `large-${crypto.randomUUID()}` });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: corpus(300 * 1024) },
      { role: 'user', content: 'the needle question' },
      { role: 'assistant', content: 'a short answer' },
      ...Array.from({ length: 6 }, (_, i): ChatMessage[] => [{ role: 'user', content: `later ${i}` }, { role: 'assistant', content: `reply ${i}` }]).flat(),
    ];
    await store.import(JSON.stringify({
      format: 'pagent-web/session', version: 1, id: 'big', title: 'Big', createdAt: 1000, updatedAt: 1000,
      session: { version: 1, kind: 'session', systemPrompt: undefined, messages },
    }));
    const s = store;
    const el = await chatFixture((c) => {
      c.style.height = '360px';
      c.store = s;
    });
    await until(() => $(el, '[part="session-search"]') !== null, 'the search field');
    const field = $<HTMLInputElement>(el, '[part="session-search"]')!;
    field.focus();
    await userEvent.fill(field, 'needle');
    await until(() => $$(el, '[part="search-hit"]').length === 1, 'the hit');
    $(el, '[part="search-hit"]')!.click();
    await until(() => $(el, '[data-hit]') !== null, 'the marked message');
    const hit = $<HTMLElement>(el, '[data-hit]')!;
    expect(hit.textContent).toContain('the needle question');
    const answer = $(el, '[part~="answer-text"]')!;
    await until(() => !answer.hasAttribute('aria-busy'), 'the large answer drawn');
    const inView = (): boolean => {
      const box = hit.getBoundingClientRect();
      const view = $(el, '[part="timeline"]')!.getBoundingClientRect();
      return box.top >= view.top && box.bottom <= view.bottom;
    };
    await until(inView, 'the marked message in view');
    await new Promise((r) => setTimeout(r, 100));
    expect(inView()).toBe(true);
  }, 60_000);
});

describe('only the newest answer is drawn', () => {
  it('stops drawing a stored answer when another conversation is opened, and draws the new one', async () => {
    const big = corpus(400 * 1024);
    const el = await chatFixture((c) =>
      (c.store = memoryStore({
        big: [{ role: 'user', content: 'q' }, { role: 'assistant', content: big }],
        small: [{ role: 'user', content: 'q2' }, { role: 'assistant', content: 'a *small* answer' }],
      })),
    );
    await openConversation(el, 'big');
    const old = $(el, '[part~="answer-text"]')!;
    expect(old.getAttribute('aria-busy')).toBe('true');
    $$(el, '[part~="session"]').find((r) => r.dataset['sessionId'] === 'small')!.querySelector<HTMLElement>('[part~="session-open"]')!.click();
    await until(() => answers(el)[0] === 'a small answer', 'the other conversation');
    expect(old.isConnected).toBe(false);
    // a removal that outlasts its task stops the drawing (a timer of that task)
    await new Promise((r) => setTimeout(r, 0));
    const stoppedAt = old.textContent!.length;
    await until(() => sliceScheduler.idle, 'the queue empty');
    await new Promise((r) => setTimeout(r, 50));
    expect(old.textContent!.length).toBe(stoppedAt);
    expect(stoppedAt).toBeLessThan(big.length / 2);
  }, 60_000);

  it('drops what the last answer had waiting when another takes its place', async () => {
    const stepper = steppedScheduler(8 * 1024);
    const first = corpus(200 * 1024);
    const { target, draw } = drawBlock(block(first), stepper);
    await until(() => stepper.waiting > 0, 'a slice');
    await stepper.next();
    expect(target.getAttribute('aria-busy')).toBe('true');
    const second = 'the *second* answer';
    draw(block(second));
    expect(target.hasAttribute('aria-busy')).toBe(false);
    for (let i = 0; i < 3; i++) await stepper.next();
    expect(answerHtml(target)).toBe(oneShot(second));
    expect(stepper.scheduler.idle).toBe(true);
  });

  it('goes on when a row is moved mid-drawing, and draws again from the start when it is put back after a removal', async () => {
    const text = corpus(150 * 1024);
    const stepper = steppedScheduler(16 * 1024);
    const b = block(text);
    const { target, draw } = drawBlock(b, stepper);
    const part = draw(b);
    await until(() => stepper.waiting > 0, 'a slice');
    await stepper.next();
    // a move: out of the page and back within one task
    part.setConnected(false);
    part.setConnected(true);
    await new Promise((r) => setTimeout(r, 0));
    const before = stepper.perTask.reduce((x, y) => x + y, 0);
    await drain(target, stepper);
    expect(stepper.perTask.reduce((x, y) => x + y, 0)).toBe(text.length);
    expect(before).toBeGreaterThan(0);
    expect(answerHtml(target)).toBe(oneShot(text));
    // a removal that lasts: drawing stops; put back, the answer is drawn again from its start
    const again = block(corpus(100 * 1024));
    draw(again);
    await until(() => stepper.waiting > 0, 'a slice');
    await stepper.next();
    part.setConnected(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(target.hasAttribute('aria-busy')).toBe(true);
    await stepper.next();
    const stopped = target.textContent!.length;
    await stepper.next();
    expect(target.textContent!.length).toBe(stopped);
    part.setConnected(true);
    await drain(target, stepper);
    expect(answerHtml(target)).toBe(oneShot(blockTextOf(again)));
  }, 60_000);
});

describe('a long code block', () => {
  it('lets the browser skip its earlier chunks off screen, and a long line in one still scrolls into view whole', async () => {
    const long = `const wide = "${'x'.repeat(3000)}";`;
    const lines = Array.from({ length: 350 }, (_, i) => (i === 150 ? long : `let v${i} = ${i};`));
    const el = await chatFixture((c) => (c.style.width = '600px'));
    await pushAll(el, textRun('q', ['```\n' + lines.join('\n') + '\n```\n']));
    const code = $(el, 'pre > code')!;
    const chunks = [...code.children] as HTMLElement[];
    expect(chunks).toHaveLength(4);
    expect(chunks.map((c) => getComputedStyle(c).contentVisibility)).toEqual(['auto', 'auto', 'auto', 'visible']);
    const pre = code.parentElement!;
    const chunk = chunks[1]!;
    chunk.scrollIntoView();
    const range = document.createRange();
    const text = chunk.firstChild as Text;
    const at = text.data.indexOf(long);
    range.setStart(text, at);
    range.setEnd(text, at + long.length);
    const line = range.getBoundingClientRect().width;
    expect(line).toBeGreaterThan(pre.clientWidth * 2);
    // the chunk holds its longest line (nothing of it is clipped) and the block scrolls to its end
    expect(chunk.getBoundingClientRect().width).toBeGreaterThanOrEqual(line);
    expect(pre.scrollWidth).toBeGreaterThanOrEqual(line);
  });
});

describe('a long paragraph written as one line', () => {
  it('lets the browser skip every chunk off screen, the last one too, and shows the chunk in view', async () => {
    const words = ['alpha', 'beta', '**gamma**', '`delta`', 'epsilon'];
    let text = '';
    for (let i = 0; text.length < 40_000; i++) text += `${words[i % words.length]} `;
    const el = await chatFixture((c) => (c.style.width = '600px'));
    await pushAll(el, textRun('q', [text.slice(0, 20_000), text.slice(20_000)]));
    const p = $(el, '[part~="answer-text"] p')!;
    const chunks = [...p.children] as HTMLElement[];
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(chunks.every((c) => c.tagName === 'DIV')).toBe(true);
    // all of them: a chunk whose content-visibility changed when the next one came made the next paint
    // walk every chunk again
    expect(chunks.map((c) => getComputedStyle(c).contentVisibility)).toEqual(chunks.map(() => 'auto'));
    const last = chunks.at(-1)!;
    last.scrollIntoView();
    await until(() => last.getBoundingClientRect().height > 20, 'the last chunk to be laid out');
    expect(p.textContent).toBe(text.replaceAll('**', '').replaceAll('`', '').trimEnd());
  });
});

describe('highlighting a large block', () => {
  it('tokenizes a stored block of many lines a slice per task, at most a task budget of lines in the task that drew it', async () => {
    const { highlightStats } = (await import('../../../src/chat/markdown/highlighter.js')) as Engine;
    // the JavaScript tokenizer loaded: its lines are tokenized as they come
    const warm = place(document.createElement('div'));
    renderMarkdown(warm, '```js\nlet a;\n```\n');
    await until(() => warm.querySelector('span[class^="pagent-hl-"]') !== null, 'the tokenizer');
    const line = 'const value = compute(1, "two"); // three\n';
    const lines = 5000;
    const text = '```js\n' + line.repeat(lines) + '```\n';
    const spend = vi.spyOn(taskBudget, 'spend');
    let largest = 0;
    spend.mockImplementation(function (this: TaskBudget, cost: number) {
      TaskBudget.prototype.spend.call(this, cost);
      largest = Math.max(largest, this.used);
    });
    const before = highlightStats.linesTokenized;
    const slices = sliceScheduler.stats.slices;
    const div = place(document.createElement('div'));
    renderMarkdown(div, text);
    await until(() => highlightStats.linesTokenized - before >= lines, 'every line tokenized', 6000);
    expect(highlightStats.linesTokenized - before).toBe(lines);
    // no task tokenized more than its budget and one line; the queue took at least a slice per budget
    expect(largest).toBeLessThanOrEqual(SLICE_CHARS + line.length);
    expect(sliceScheduler.stats.slices - slices).toBeGreaterThanOrEqual(Math.floor((lines * line.length) / SLICE_CHARS));
    expect(div.querySelectorAll('span[class^="pagent-hl-"]').length).toBeGreaterThan(lines * 3);
    const plain = document.createElement('div');
    renderMarkdown(plain, text.replace('```js', '```nohighlight'));
    expect(div.querySelector('code')!.textContent).toBe(plain.querySelector('code')!.textContent);
  }, 60_000);

  it('drops the lines still waiting to be highlighted when the answer is replaced', async () => {
    const line = 'let x = 1;\n';
    const controller = new AbortController();
    const dropped = place(document.createElement('div'));
    renderMarkdown(dropped, '```js\n' + line.repeat(10_000) + '```\n', { signal: controller.signal });
    controller.abort();
    // a block after it, with the same tokenizer: once it is highlighted, the first one had its turn
    const after = place(document.createElement('div'));
    renderMarkdown(after, '```js\n' + line + '```\n');
    await until(() => after.querySelector('span[class^="pagent-hl-"]') !== null, 'the block after it highlighted');
    await until(() => sliceScheduler.idle, 'the queue empty');
    expect(dropped.querySelectorAll('span[class^="pagent-hl-"]')).toHaveLength(0);
  });
});
