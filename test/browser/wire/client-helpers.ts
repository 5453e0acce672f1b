import { expect, inject } from 'vitest';
import type { UnknownEvent, WireEvent } from '../../../src/index.js';
import type { CloseRecord } from '../../server/wire.js';

export const api = inject('apiUrl');

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** One JSON-RPC line as pagent writes it. */
export const rpc = (method: string, params: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';

/** Victor documents as an SSE body. */
export const victorSse = (docs: Array<Record<string, unknown>>): string =>
  docs.map((doc) => `data: ${JSON.stringify({ v: 1, ...doc })}\n\n`).join('');

export const uniqueId = (): string => crypto.randomUUID();

/** What the test server saw of a recorded connection. */
export async function closeRecord(id: string): Promise<Partial<CloseRecord>> {
  return (await (await fetch(`${api}/wire/closes?id=${id}`)).json()) as Partial<CloseRecord>;
}

/** Waits until the server has seen the connection `id` go, and returns how it went. */
export async function serverSawClose(id: string): Promise<Partial<CloseRecord>> {
  await expect.poll(async () => (await closeRecord(id)).closed, { timeout: 5_000, interval: 20 }).toBe(true);
  return closeRecord(id);
}

/** A run as a reader sees it: what it said, did and how it ended. */
export interface RunProjection {
  text: string;
  reasoning: string;
  calls: Array<[id: string, name: string, args: string]>;
  results: Array<[id: string, name: string, content: string, ok: boolean]>;
  errors: Array<[code: string, message: string]>;
  end: { content: string; reasoning_content: string; stop_reason: string | undefined };
}

/** The Victor reference SSE example (docs_api_reference_sse_example) as a reader sees it, over any transport. */
export const VICTOR_REFERENCE_RUN: RunProjection = {
  text: 'The failure is caused by…',
  reasoning: '…',
  calls: [['victor-1', 'shell', '{"cmd":"pytest -x"}']],
  results: [['victor-1', 'shell', '1 failed…', true]],
  errors: [],
  end: { content: 'The failure is caused by…', reasoning_content: '', stop_reason: 'no_tool_calls' },
};

/**
 * Projects events onto runs, checking the run contract on the way: every event is inside a run, each
 * run ends with exactly one RunEnd, always last, with at most one RunError.
 */
export function projectRuns(events: Array<WireEvent | UnknownEvent>): RunProjection[] {
  const runs: RunProjection[] = [];
  let run: RunProjection | undefined;
  for (const event of events) {
    if ('unknown' in event) continue;
    if (event.method === 'RunBegin') {
      expect(run, 'RunBegin while a run is open').toBeUndefined();
      run = { text: '', reasoning: '', calls: [], results: [], errors: [], end: { content: '', reasoning_content: '', stop_reason: undefined } };
      continue;
    }
    if (!run) throw new Error(`${event.method} outside a run`);
    switch (event.method) {
      case 'TextDelta':
        run.text += event.params.text;
        break;
      case 'ReasoningDelta':
        run.reasoning += event.params.text;
        break;
      case 'ToolCallBegin':
        run.calls.push([event.params.tool_call_id, event.params.name, event.params.arguments]);
        break;
      case 'ToolResult':
        run.results.push([event.params.tool_call_id, event.params.name, event.params.content, event.params.ok ?? true]);
        break;
      case 'RunError':
        run.errors.push([event.params.code, event.params.message]);
        break;
      case 'RunEnd':
        run.end = {
          content: event.params.content,
          reasoning_content: event.params.reasoning_content,
          stop_reason: event.params.stop_reason,
        };
        runs.push(run);
        run = undefined;
        break;
    }
  }
  expect(run, 'the last run has no RunEnd').toBeUndefined();
  for (const r of runs) expect(r.errors.length).toBeLessThanOrEqual(1);
  return runs;
}

/** Methods in order, for compact assertions. */
export const methods = (events: Array<WireEvent | UnknownEvent>): string[] => events.map((e) => e.method);

export const FAILED_RUN_END = {
  method: 'RunEnd',
  params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' },
};
