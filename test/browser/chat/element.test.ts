import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import type { PagentChat } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { $, $$, END, answers, chatFixture, pushAll, textRun, toolCards, until } from './helpers.js';

function keydown(target: HTMLElement, init: KeyboardEventInit & { keyCode?: number }): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { bubbles: true, composed: true, cancelable: true, ...init });
  if (init.keyCode !== undefined) Object.defineProperty(e, 'keyCode', { value: init.keyCode });
  target.dispatchEvent(e);
  return e;
}

/** Events of `type` from `el`, heard on the document (so they must bubble out of the shadow root). */
function collect<K extends keyof GlobalEventHandlersEventMap>(el: PagentChat, type: K): GlobalEventHandlersEventMap[K][] {
  const out: GlobalEventHandlersEventMap[K][] = [];
  document.addEventListener(type, (e) => {
    if (e.target === el) out.push(e);
  });
  return out;
}

/** An async source that the test feeds by hand and that records whether it was closed. */
function manualSource() {
  const queue: WireEvent[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const iterable: AsyncIterable<WireEvent> = {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          while (queue.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
          if (closed) return { done: true, value: undefined };
          return { done: false, value: queue.shift()! };
        },
        async return() {
          closed = true;
          wake?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
  return {
    iterable,
    push(...events: WireEvent[]) {
      queue.push(...events);
      wake?.();
    },
    get closed() {
      return closed;
    },
  };
}

describe('<pagent-chat> rendering', () => {
  it('renders a user message, a streamed answer and announces it only when finished', async () => {
    const el = await chatFixture();
    const run = textRun('Hello?', ['Hi ', 'there', '!']);
    await pushAll(el, run.slice(0, 4));
    const log = $(el, '[part="timeline"]')!;
    expect(log.getAttribute('role')).toBe('log');
    expect(log.getAttribute('aria-busy')).toBe('true');
    expect($(el, '[part~="user"]')!.textContent!.trim()).toBe('Hello?');
    // the markdown stream may hold back the last characters of a line until it knows what they are
    const streamed = answers(el);
    expect(streamed.length).toBe(1);
    expect(streamed[0]!.length).toBeGreaterThan(0);
    expect('Hi there'.startsWith(streamed[0]!)).toBe(true);
    expect($(el, '[role="status"]')!.textContent).toBe('');
    await pushAll(el, run.slice(4));
    expect(answers(el)).toEqual(['Hi there!']);
    expect(log.getAttribute('aria-busy')).toBe('false');
    expect($(el, '[role="status"]')!.textContent).toBe('Answer finished');
  });

  it('renders answer markdown but raw HTML as text', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('q', ['# Title\n\n- **one**\n- `two`\n\n<b>not bold</b>\n']));
    const answer = $(el, '[part~="answer-text"]')!;
    expect(answer.querySelector('h1')?.textContent).toBe('Title');
    expect(answer.querySelectorAll('li').length).toBe(2);
    expect(answer.querySelector('strong')?.textContent).toBe('one');
    expect(answer.querySelector('b')).toBeNull();
    expect(answer.textContent).toContain('<b>not bold</b>');
  });

  it('keeps reasoning open while it streams and collapses it when the answer starts', async () => {
    const el = await chatFixture();
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'q' } }, { method: 'ReasoningDelta', params: { text: 'Let me think' } }]);
    const details = $<HTMLDetailsElement>(el, 'details[part="reasoning"]')!;
    expect(details.open).toBe(true);
    expect(details.querySelector('[part="reasoning-text"]')!.textContent).toBe('Let me think');
    await pushAll(el, [{ method: 'TextDelta', params: { text: 'Answer' } }]);
    expect(details.open).toBe(false);
    details.open = true;
    await pushAll(el, [{ method: 'TextDelta', params: { text: ' more' } }]);
    expect(details.open).toBe(true);
  });

  it('shows tool cards: pretty JSON or raw arguments, pending, result, failure, duration', async () => {
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 'explode', arguments: '{oops' } },
    ]);
    expect(toolCards(el)).toEqual([['get_weather', 'pending'], ['explode', 'pending']]);
    const args = $$(el, '[part="tool-arguments"]').map((n) => n.textContent);
    expect(args).toEqual(['{\n  "city": "Paris"\n}', '{oops']);
    await pushAll(el, [
      { method: 'ToolResult', params: { tool_call_id: 'a', name: 'get_weather', content: '{"temp": 18}', ok: true, elapsed_ms: 42 } },
      { method: 'ToolResult', params: { tool_call_id: 'b', name: 'explode', content: 'explode error: boom', ok: false, elapsed_ms: 1500 } },
    ]);
    expect(toolCards(el)).toEqual([['get_weather', 'ok'], ['explode', 'failed']]);
    expect($$(el, '[part="tool-result"]').map((n) => n.textContent)).toEqual(['{"temp": 18}', 'explode error: boom']);
    expect($$(el, '[part="tool-duration"]').map((n) => n.textContent)).toEqual(['42 ms', '1.5 s']);
    expect($$(el, '[part="tool-status"]').map((n) => n.textContent)).toEqual(['Done', 'Failed']);
    expect($(el, '[part~="tool-call-failed"]')).not.toBeNull();
  });

  it('shows turn boundaries and token usage', async () => {
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TurnBegin', params: { turn: 1 } },
      { method: 'TextDelta', params: { text: 'ok' } },
      { method: 'RunEnd', params: { ...END, content: 'ok', usage: { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234 } } },
    ]);
    expect($$(el, '[part="turn"]').map((n) => n.textContent!.trim())).toEqual(['Turn 2']);
    expect($(el, '[part="usage"]')!.textContent).toBe('1,200 in · 34 out · 1,234 tokens');
  });

  it('shows a RunError as a readable error with a retry that sends the input again', async () => {
    const el = await chatFixture((c) => (c.client = { stream: () => (async function* () {})() }));
    const sent = collect(el, 'pagent-send');
    const errors = collect(el, 'pagent-error');
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Try me' } },
      { method: 'RunError', params: { message: 'Upstream said no', code: 'http', status: 503 } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    const error = $(el, '[part="error"]')!;
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('Upstream said no');
    expect(error.textContent).toContain('http · 503');
    expect(errors.map((e) => [e.detail.error.name, e.detail.error.code, e.detail.error.status])).toEqual([['PagentError', 'http', 503]]);
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    expect(sent.map((e) => e.detail.text)).toEqual(['Try me']);
  });

  it('dispatches pagent-event for every event and pagent-run-end once, bubbling and composed', async () => {
    const el = await chatFixture();
    const events = collect(el, 'pagent-event');
    const ends = collect(el, 'pagent-run-end');
    const run = textRun('q', ['a', 'b']);
    await pushAll(el, run);
    expect(events.map((e) => e.detail.event.method)).toEqual(run.map((e) => e.method));
    expect(events.every((e) => e.bubbles && e.composed)).toBe(true);
    expect(ends.map((e) => e.detail.params.content)).toEqual(['ab']);
  });
});

describe('<pagent-chat> composer', () => {
  it('sends on Enter, inserts a newline on Shift+Enter, and never sends during IME composition', async () => {
    const el = await chatFixture();
    const sent = collect(el, 'pagent-send');
    const input = $<HTMLTextAreaElement>(el, '[part="input"]')!;
    input.value = '日本語';
    expect(keydown(input, { key: 'Enter', isComposing: true }).defaultPrevented).toBe(false);
    expect(keydown(input, { key: 'Enter', keyCode: 229 }).defaultPrevented).toBe(false);
    expect(keydown(input, { key: 'Enter', shiftKey: true }).defaultPrevented).toBe(false);
    expect(sent).toEqual([]);
    keydown(input, { key: 'Enter' });
    expect(sent.map((e) => e.detail.text)).toEqual(['日本語']);
    expect(input.value).toBe('');
    await el.updateComplete;
    expect($(el, '[part~="user"]')!.textContent!.trim()).toBe('日本語');
  });

  it('lets a page cancel pagent-send and handle the text itself', async () => {
    const el = await chatFixture();
    el.addEventListener('pagent-send', (e) => e.preventDefault(), { once: true });
    el.send('mine');
    await el.updateComplete;
    expect($(el, '[part~="user"]')).toBeNull();
  });

  it('sends suggestion chips from the slot', async () => {
    const el = await chatFixture();
    const chip = document.createElement('button');
    chip.slot = 'suggestions';
    chip.dataset['text'] = 'What is the weather?';
    chip.textContent = 'Weather';
    el.append(chip);
    const sent = collect(el, 'pagent-send');
    chip.click();
    expect(sent.map((e) => e.detail.text)).toEqual(['What is the weather?']);
  });

  it('runs an agent, shows a stop button while streaming, and stopping keeps the partial answer marked stopped', async () => {
    const src = manualSource();
    let signal: AbortSignal | undefined;
    const el = await chatFixture((c) => {
      c.agent = {
        events: (input, options) => {
          signal = options?.signal;
          src.push({ method: 'RunBegin', params: { user_input: input as string } }, { method: 'TextDelta', params: { text: 'Partial answer' } });
          return src.iterable;
        },
      };
    });
    el.send('Go');
    await until(() => answers(el)[0]?.startsWith('Partial') === true, 'the partial answer');
    await el.updateComplete;
    expect($(el, '[part="send-button"]')).toBeNull();
    $<HTMLButtonElement>(el, '[part="stop-button"]')!.click();
    await until(() => $(el, '[part="stopped"]') !== null, 'the stopped mark');
    expect(signal?.aborted).toBe(true);
    expect(src.closed).toBe(true);
    expect(answers(el)).toEqual(['Partial answer']);
    expect($(el, '[part="stop-button"]')).toBeNull();
    expect($(el, '[part="timeline"]')!.getAttribute('aria-busy')).toBe('false');
  });

  it('sending while a run streams stops that run (marked stopped) and starts the new one', async () => {
    const sources = [manualSource(), manualSource()];
    let n = 0;
    const el = await chatFixture((c) => {
      c.agent = {
        events: (input) => {
          const src = sources[n++]!;
          src.push({ method: 'RunBegin', params: { user_input: input as string } }, { method: 'TextDelta', params: { text: `answer to ${input}` } });
          return src.iterable;
        },
      };
    });
    el.send('first');
    await until(() => (answers(el)[0] ?? '').startsWith('answer'), 'the first answer');
    el.send('second');
    sources[1]!.push({ method: 'RunEnd', params: { ...END, content: 'answer to second' } });
    await until(() => answers(el)[1] === 'answer to second', 'the second run');
    await el.updateComplete;
    expect(answers(el)).toEqual(['answer to first', 'answer to second']);
    expect(sources[0]!.closed).toBe(true);
    expect($$(el, '[part~="user"]').map((u) => u.textContent!.trim())).toEqual(['first', 'second']);
    const rows = $$(el, '[part~="message"], [part="stopped"]').map((n) => n.getAttribute('part'));
    expect(rows).toEqual(['message user', 'message answer', 'stopped', 'message user', 'message answer']);
  });

  it('new conversation clears the timeline', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('q', ['a']));
    $<HTMLButtonElement>(el, '[part="new-button"]')!.click();
    await el.updateComplete;
    expect($$(el, '[part~="message"]')).toEqual([]);
  });

  it('asks for tool approval on the card and resolves with the choice', async () => {
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'delete_files', arguments: '{}' } },
    ]);
    const decision = el.requestApproval({ tool_call_id: 'a', name: 'delete_files', arguments: '{}' });
    await el.updateComplete;
    expect(toolCards(el)).toEqual([['delete_files', 'awaiting-approval']]);
    $<HTMLButtonElement>(el, '[part="deny-button"]')!.click();
    expect(await decision).toBe(false);
    await el.updateComplete;
    expect(toolCards(el)).toEqual([['delete_files', 'denied']]);
    expect($(el, '[part="approve-button"]')).toBeNull();
  });
});

describe('<pagent-chat> lifecycle', () => {
  it('aborts the run when removed mid-stream and the source is closed', async () => {
    const src = manualSource();
    const el = await chatFixture();
    const done = el.consume(src.iterable);
    src.push({ method: 'RunBegin', params: { user_input: 'q' } }, { method: 'TextDelta', params: { text: 'streaming' } });
    await until(() => answers(el)[0]?.startsWith('stream') === true, 'the first delta');
    el.remove();
    await done;
    expect(src.closed).toBe(true);
  });

  it('keeps several elements on one page independent', async () => {
    const a = await chatFixture();
    const b = await chatFixture();
    await pushAll(a, textRun('to a', ['A']));
    await pushAll(b, textRun('to b', ['B']));
    expect([answers(a), answers(b)]).toEqual([['A'], ['B']]);
  });

  it('passes an accessibility check with messages, reasoning, tools and an error', async () => {
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ReasoningDelta', params: { text: 'hmm' } },
      { method: 'TextDelta', params: { text: 'answer' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 't', arguments: '{"x":1}' } },
      { method: 'ToolResult', params: { tool_call_id: 'a', name: 't', content: 'r', ok: false } },
      { method: 'RunError', params: { message: 'bad', code: 'provider' } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    await chaiExpect(el).to.be.accessible();
  });
});

describe('<pagent-chat> wire log for every source', () => {
  const openLog = async (el: PagentChat): Promise<string[]> => {
    $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
    await until(() => $(el, '[part="wire-log"] ol, [part="wire-log"] .wire-empty') !== null, 'the open drawer');
    return $$(el, '[part~="wire-line"] code').map((c) => c.textContent ?? '');
  };

  it('logs each event an agent yields as its NDJSON line, without the newline', async () => {
    const el = await chatFixture((c) => {
      c.wireLog = true;
      c.agent = { events: (input) => (async function* () { yield* textRun(input as string, ['Hi ', 'there']); })() };
    });
    el.send('Hello');
    await until(() => answers(el)[0] === 'Hi there' && !el.streaming, 'the answer');
    expect(await openLog(el)).toEqual([
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"Hello"}}',
      '{"jsonrpc":"2.0","method":"TurnBegin","params":{"turn":0}}',
      '{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"Hi "}}',
      '{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"there"}}',
      '{"jsonrpc":"2.0","method":"StepEnd","params":{"content":"Hi there","tool_calls":[],"reasoning_content":"","usage":null}}',
      '{"jsonrpc":"2.0","method":"TurnEnd","params":{"turn":0,"stopped":true}}',
      '{"jsonrpc":"2.0","method":"RunEnd","params":{"content":"Hi there","tool_calls":[],"reasoning_content":"","usage":null,"stop_reason":"no_tool_calls"}}',
    ]);
    expect($(el, '[part="wire-log"] summary')!.textContent).toBe('Wire log (7)');
  });

  it('logs pushed, consumed and client events, including unknown ones, and not the element\'s own closing events', async () => {
    const el = await chatFixture((c) => {
      c.wireLog = true;
      c.client = { stream: () => (async function* () { yield { method: 'RunBegin', params: { user_input: 'c' } } as WireEvent; })() };
    });
    el.push({ method: 'RunBegin', params: { user_input: 'pushed' } });
    el.push({ method: 'RunEnd', params: { ...END, stop_reason: 'no_tool_calls' } });
    await el.consume(
      (async function* () {
        yield { method: 'member_joined', params: { who: 'x' }, unknown: true as const };
        yield { method: 'RunBegin', params: { user_input: 'consumed' } } as WireEvent;
        yield { method: 'RunEnd', params: { ...END, stop_reason: 'no_tool_calls' } } as WireEvent;
      })(),
    );
    el.send('via client');
    // the client's stream ends with the run open: the element closes it with RunError + RunEnd, not logged
    await until(() => $(el, '[part="error"]') !== null, 'the truncated run');
    expect(await openLog(el)).toEqual([
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"pushed"}}',
      '{"jsonrpc":"2.0","method":"RunEnd","params":{"content":"","tool_calls":[],"reasoning_content":"","usage":null,"stop_reason":"no_tool_calls"}}',
      '{"jsonrpc":"2.0","method":"member_joined","params":{"who":"x"}}',
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"consumed"}}',
      '{"jsonrpc":"2.0","method":"RunEnd","params":{"content":"","tool_calls":[],"reasoning_content":"","usage":null,"stop_reason":"no_tool_calls"}}',
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"c"}}',
    ]);
  });
});

describe('<pagent-chat> wire log while off', () => {
  it('keeps no lines while the wire log is off, and shows the events that arrive once it is on', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('before', ['not ', 'logged']));
    el.wireLog = true;
    await el.updateComplete;
    el.push({ method: 'RunBegin', params: { user_input: 'after' } });
    await el.updateComplete;
    $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
    await until(() => $(el, '[part="wire-log"] ol') !== null, 'the open drawer');
    expect($$(el, '[part~="wire-line"] code').map((c) => c.textContent)).toEqual([
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"after"}}',
    ]);
    expect($(el, '[part="wire-log"] summary')!.textContent).toBe('Wire log (1)');
  });
});

describe('<pagent-chat> stop then send', () => {
  /** A source that starts a run, streams a partial answer, then waits for the abort without ending the run. */
  async function* hanging(signal?: AbortSignal): AsyncGenerator<WireEvent> {
    yield { method: 'RunBegin', params: { user_input: 'first' } };
    yield { method: 'TurnBegin', params: { turn: 0 } };
    yield { method: 'TextDelta', params: { text: 'partial answer' } };
    await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }) ?? setTimeout(resolve, 60_000));
  }

  it('"Regenerate" (stop, then send at once) shows the old run stopped with its partial answer and ends it once, as cancelled', async () => {
    const el = await chatFixture((c) => {
      c.stopGraceMs = 20;
      c.client = {
        stream: async function* () {
          yield* textRun('again', ['new answer']);
        },
      };
    });
    const ends: string[] = [];
    el.addEventListener('pagent-run-end', (e) => ends.push(String(e.detail.params.stop_reason)));
    const run = el.consume(hanging());
    await until(() => answers(el)[0]?.startsWith('partial') === true, 'the partial answer');
    el.stop();
    el.send('again');
    await run;
    await until(() => ends.length === 2, 'the new run to end');
    await el.updateComplete;
    expect(ends).toEqual(['cancelled', 'no_tool_calls']);
    expect(answers(el)).toEqual(['partial answer', 'new answer']);
    expect($$(el, '[part="stopped"]')).toHaveLength(1);
    expect($$(el, '[part~="error"]')).toEqual([]);
    expect($$(el, '[part~="user"]').map((u) => u.textContent!.trim())).toEqual(['first', 'again']);
  });

  it('a new run right after stop() with a RunBegin closes the old one as cancelled, not failed', async () => {
    const el = await chatFixture((c) => (c.stopGraceMs = 20));
    const ends: string[] = [];
    el.addEventListener('pagent-run-end', (e) => ends.push(String(e.detail.params.stop_reason)));
    const first = el.consume(hanging());
    await until(() => answers(el)[0]?.startsWith('partial') === true, 'the partial answer');
    el.stop();
    const second = el.consume((async function* () {
      yield* textRun('second', ['done']);
    })());
    await Promise.all([first, second]);
    await el.updateComplete;
    expect(ends).toEqual(['cancelled', 'no_tool_calls']);
    expect($$(el, '[part="stopped"]')).toHaveLength(1);
    expect($$(el, '[part~="error"]')).toEqual([]);
    expect(answers(el)).toEqual(['partial answer', 'done']);
  });

  it('stop() ends a run opened only by push() as cancelled, and the composer leaves Stop mode', async () => {
    const el = await chatFixture();
    const ends: string[] = [];
    el.addEventListener('pagent-run-end', (e) => ends.push(String(e.detail.params.stop_reason)));
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'hi' } },
      { method: 'TextDelta', params: { text: 'half' } },
    ]);
    expect(el.streaming).toBe(true);
    expect($(el, '[part~="stop-button"]')).not.toBeNull();
    el.stop();
    await el.updateComplete;
    expect(ends).toEqual(['cancelled']);
    expect(el.streaming).toBe(false);
    expect($(el, '[part~="stop-button"]')).toBeNull();
    expect($(el, '[part~="send-button"]')).not.toBeNull();
    expect($$(el, '[part="stopped"]')).toHaveLength(1);
  });
});
