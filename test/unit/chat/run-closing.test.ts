import { describe, expect, it } from 'vitest';
import { PagentError } from '../../../src/errors.js';
import { eventsClosingRun } from '../../../src/chat/runs/run-controller.js';
import { addUserMessage } from '../../../src/chat/timeline/commands.js';
import { createTimeline, type TimelineState } from '../../../src/chat/timeline/items.js';
import { reduceTimeline } from '../../../src/chat/timeline/reducer.js';
import type { WireEvent } from '../../../src/wire/events.js';

const run = (events: WireEvent[], state: TimelineState = createTimeline()): TimelineState => events.reduce(reduceTimeline, state);
const begin: WireEvent = { method: 'RunBegin', params: { user_input: 'Q' } };
const partial: WireEvent[] = [begin, { method: 'TurnBegin', params: { turn: 0 } }, { method: 'TextDelta', params: { text: 'Half an ' } }, { method: 'TextDelta', params: { text: 'answer' } }];
const end = (content: string, stop_reason: string): WireEvent => ({ method: 'RunEnd', params: { content, tool_calls: [], reasoning_content: '', usage: null, stop_reason } });
const stopped = { aborted: true, error: undefined };

describe('closing a run its source left open', () => {
  it('adds nothing when no run is open and nothing waits for an answer', () => {
    expect(eventsClosingRun(createTimeline(), stopped)).toEqual([]);
    expect(eventsClosingRun(run([...partial, end('Half an answer', 'no_tool_calls')]), { aborted: false, error: undefined })).toEqual([]);
  });

  it('ends a stopped run as cancelled with the answer streamed so far', () => {
    expect(eventsClosingRun(run(partial), stopped)).toEqual([end('Half an answer', 'cancelled')]);
  });

  it('gives a message sent but never answered a run of its own, so it gets an ending', () => {
    const sent = addUserMessage(createTimeline(), 'Q');
    expect(eventsClosingRun(sent, stopped)).toEqual([begin, end('', 'cancelled')]);
    expect(eventsClosingRun(sent, { aborted: false, error: new PagentError('HTTP 502 from POST /api', { code: 'http' }) })).toEqual([
      begin,
      { method: 'RunError', params: { message: 'HTTP 502 from POST /api', code: 'http' } },
      end('', 'error'),
    ]);
  });

  it("names the failure: the source's own code, network for anything else thrown, truncated for a quiet end", () => {
    const open = run(partial);
    const failure = (error: unknown): WireEvent[] => eventsClosingRun(open, { aborted: false, error });
    expect(failure(new PagentError('Stalled', { code: 'timeout' }))[0]).toEqual({ method: 'RunError', params: { message: 'Stalled', code: 'timeout' } });
    expect(failure(new TypeError('Failed to fetch'))[0]).toEqual({ method: 'RunError', params: { message: 'Failed to fetch', code: 'network' } });
    expect(failure(undefined)).toEqual([
      { method: 'RunError', params: { message: 'The source ended before its run did (no RunEnd)', code: 'truncated' } },
      end('Half an answer', 'error'),
    ]);
  });

  it('adds no second RunError to a run that already failed', () => {
    const failed = run([...partial, { method: 'RunError', params: { message: 'Rate limited', code: 'http', status: 429 } }]);
    const events = eventsClosingRun(failed, { aborted: false, error: undefined });
    expect(events.map((e) => e.method)).toEqual(['RunEnd']);
    expect(events[0]!.params).toMatchObject({ stop_reason: 'error' });
  });
});
