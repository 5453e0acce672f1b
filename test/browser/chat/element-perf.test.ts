import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import type { TimelineState } from '../../../src/chat/timeline/items.js';
import { chatFixture, pushAll, shadow } from './helpers.js';

interface DeltaWork {
  /** MutationObserver records for the delta's render. */
  mutations: number;
  /** Nodes added or removed by them. */
  nodes: number;
  /** The reducer's own work counter. */
  reducer: number;
}

describe('<pagent-chat> cost per delta', () => {
  it('does no more DOM and reducer work at the 10,000th delta than at the 100th', async () => {
    const el = await chatFixture();
    // earlier conversation the stream must not touch
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'earlier' } },
      { method: 'TextDelta', params: { text: 'An earlier answer.' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 't', arguments: '{"x": 1}' } },
      { method: 'ToolResult', params: { tool_call_id: 'a', name: 't', content: 'ok' } },
      { method: 'RunEnd', params: { content: 'An earlier answer.', tool_calls: [], reasoning_content: '', usage: null } },
      { method: 'RunBegin', params: { user_input: 'now' } },
    ]);
    // the callback runs at the microtasks `await updateComplete` yields to, so collect there too
    const pending: MutationRecord[] = [];
    const observer = new MutationObserver((records) => pending.push(...records));
    observer.observe(shadow(el), { subtree: true, childList: true, characterData: true, attributes: true });
    const timeline = (): TimelineState => el['timeline'];
    const work: DeltaWork[] = [];
    for (let i = 1; i <= 10_000; i++) {
      const before = timeline().work;
      // a paragraph break every 50 deltas, as real answers have (deltas 100 and 10,000 are at the same phase)
      el.push({ method: 'TextDelta', params: { text: i % 50 === 0 ? 'word\n\n' : 'word ' } });
      await el.updateComplete;
      const records = [...pending.splice(0), ...observer.takeRecords()];
      work.push({
        mutations: records.length,
        nodes: records.reduce((n, r) => n + r.addedNodes.length + r.removedNodes.length, 0),
        reducer: timeline().work - before,
      });
    }
    observer.disconnect();
    const at100 = work[99]!;
    const at10k = work[9_999]!;
    // over 300 deltas: 6 paragraphs, one group of the answer's blocks (GROUP_SIZE), so each window holds one group's start
    const window = (from: number) => work.slice(from, from + 300).reduce((a, w) => a + w.mutations + w.nodes, 0);
    console.info(`per-delta work: #100 ${JSON.stringify(at100)}, #10000 ${JSON.stringify(at10k)}; mutations+nodes over deltas 100-399: ${window(99)}, 9701-10000: ${window(9_700)}`);
    expect(at10k.mutations).toBeLessThanOrEqual(at100.mutations);
    expect(at10k.nodes).toBeLessThanOrEqual(at100.nodes);
    expect(at10k.reducer).toBeLessThanOrEqual(at100.reducer);
    expect(window(9_700)).toBeLessThanOrEqual(window(99));
    // each delta did something, and nothing outside the streaming answer changed
    expect(at10k.mutations).toBeGreaterThan(0);
    const answer = shadow(el).querySelectorAll('[part~="answer-text"]');
    expect(answer.length).toBe(2);
    expect(answer[1]!.querySelectorAll('p').length).toBe(200);
    await chaiExpect(el).to.be.accessible();
  }, 120_000);

  it('changes only the streaming message: earlier rows keep their DOM nodes', async () => {
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'first' } },
      { method: 'TextDelta', params: { text: 'First answer.' } },
      { method: 'RunEnd', params: { content: 'First answer.', tool_calls: [], reasoning_content: '', usage: null } },
      { method: 'RunBegin', params: { user_input: 'second' } },
    ]);
    const first = shadow(el).querySelector('[part~="answer"]')!;
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((rs) => records.push(...rs));
    observer.observe(shadow(el), { subtree: true, childList: true, characterData: true, attributes: true });
    for (let i = 0; i < 50; i++) {
      el.push({ method: 'TextDelta', params: { text: `d${i} ` } });
      await el.updateComplete;
    }
    records.push(...observer.takeRecords());
    expect(records.length).toBeGreaterThanOrEqual(49);
    expect(records.filter((r) => first.contains(r.target))).toEqual([]);
    expect(shadow(el).querySelector('[part~="answer"]')).toBe(first);
  });

  it('batches deltas into one render per animation frame when frame batching is on', async () => {
    const el = await chatFixture((c) => (c.frameBatching = true));
    el.push({ method: 'RunBegin', params: { user_input: 'q' } });
    await el.updateComplete;
    let renders = 0;
    const original = el.render.bind(el);
    el.render = () => {
      renders++;
      return original();
    };
    for (let i = 0; i < 100; i++) {
      el.push({ method: 'TextDelta', params: { text: 'x' } });
      await Promise.resolve();
    }
    await el.updateComplete;
    expect(renders).toBeLessThanOrEqual(2);
    expect(renders).toBeGreaterThan(0);
  });

  it('does no more work per delta at run 2,000 of a conversation than at run 20', async () => {
    const el = await chatFixture();
    const rows = el['rows'] as { compared: number };
    const END = { content: '', tool_calls: [], reasoning_content: '', usage: null };
    const addRuns = async (n: number): Promise<void> => {
      for (let r = 0; r < n; r++) {
        el.push({ method: 'RunBegin', params: { user_input: `question ${r}` } });
        el.push({ method: 'TextDelta', params: { text: `Answer ${r} with **bold** and \`code\`.` } });
        el.push({ method: 'RunEnd', params: { ...END, stop_reason: 'no_tool_calls' } });
        if (r % 100 === 99) await el.updateComplete;
      }
      await el.updateComplete;
    };
    /** Streams 50 deltas into a new run; per delta: DOM mutations, row comparisons, reducer work. */
    const stream = async (): Promise<{ mutations: number; compared: number; reducer: number }> => {
      el.push({ method: 'RunBegin', params: { user_input: 'now' } });
      await el.updateComplete;
      const pending: MutationRecord[] = [];
      const observer = new MutationObserver((records) => pending.push(...records));
      observer.observe(shadow(el), { subtree: true, childList: true, characterData: true, attributes: true });
      const total = { mutations: 0, compared: 0, reducer: 0 };
      for (let i = 0; i < 50; i++) {
        const before = (el['timeline'] as TimelineState).work;
        el.push({ method: 'TextDelta', params: { text: i % 10 === 9 ? 'word\n\n' : 'word ' } });
        await el.updateComplete;
        total.mutations += pending.splice(0).length + observer.takeRecords().length;
        total.compared += rows.compared;
        total.reducer += (el['timeline'] as TimelineState).work - before;
      }
      observer.disconnect();
      el.push({ method: 'RunEnd', params: { ...END, stop_reason: 'no_tool_calls' } });
      await el.updateComplete;
      return total;
    };
    await addRuns(20);
    const early = await stream();
    await addRuns(1_980);
    const late = await stream();
    console.info(`per 50 deltas at run 21: ${JSON.stringify(early)}; at run 2,002: ${JSON.stringify(late)}`);
    expect(shadow(el).querySelectorAll('[part~="answer-text"]').length).toBeGreaterThanOrEqual(2_002);
    expect(early.mutations).toBeGreaterThan(0);
    expect(late.mutations).toBeLessThanOrEqual(early.mutations);
    expect(late.compared).toBeLessThanOrEqual(early.compared + 50 * 64);
    expect(late.compared / 50).toBeLessThanOrEqual(2 * 64);
    expect(late.reducer).toBeLessThanOrEqual(early.reducer);
  }, 120_000);
});
