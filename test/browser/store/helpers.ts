/** Helpers for the session store tests: unique database names, raw record access, write counting. */
import { createStore, entries, set, type UseStore } from 'idb-keyval';
import { expect } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import type { ChatMessage } from '../../../src/agent/messages.js';

/** A database name no other test uses (all browser test files share one origin). */
export function uniqueName(prefix = 'store-test'): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

/** The store's own object store, opened the way the store opens it, for reading or planting raw records. */
export function rawStore(name: string): UseStore {
  return createStore(name, 'sessions');
}

export async function rawEntries(name: string): Promise<Array<[IDBValidKey, unknown]>> {
  return entries(rawStore(name));
}

export async function plant(name: string, key: IDBValidKey, value: unknown): Promise<void> {
  await set(key, value, rawStore(name));
}

/** One conversation turn with a tool call, reasoning, CJK and emoji. */
export function turn(n: number): ChatMessage[] {
  return [
    { role: 'user', content: `第${n}問: 東京の天気は? 🌦️ (turn ${n})` },
    {
      role: 'assistant',
      content: null,
      reasoning_content: `I should call the weather tool 🤔 — ${n}`,
      tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'get_weather', arguments: `{"city":"東京","n":${n}}` } }],
    },
    { role: 'tool', tool_call_id: `call_${n}`, content: `{"temp":21,"sky":"晴れ ☀️"}` },
    { role: 'assistant', content: `東京は晴れ、21°C です 😀 (${n})`, reasoning_content: 'done' },
  ];
}

/** Counts `IDBObjectStore.put` calls and the JSON size of the values they write, while `fn` runs. */
export async function countWrites(fn: () => Promise<unknown>): Promise<{ puts: number; bytes: number }> {
  const original = IDBObjectStore.prototype.put;
  let puts = 0;
  let bytes = 0;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    puts += 1;
    bytes += new TextEncoder().encode(JSON.stringify(value) ?? '').length;
    return original.call(this, value, key);
  };
  try {
    await fn();
  } finally {
    IDBObjectStore.prototype.put = original;
  }
  return { puts, bytes };
}

/** The `StoreError` `p` rejects with; fails the test when `p` resolves or rejects with anything else. */
export async function rejection(p: Promise<unknown>): Promise<StoreError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError);
    return err as StoreError;
  }
  throw new Error('expected a StoreError, the call resolved');
}
