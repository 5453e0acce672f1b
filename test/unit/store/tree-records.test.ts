import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { MessageRecord, SessionRecord } from '../../../src/store/records.js';
import type { SessionTree, TreeNode } from '../../../src/store/tree.js';
import {
  appendedRecord,
  appendPlace,
  depthsOf,
  placeOf,
  switchedRecord,
  upgradeRecord,
  type TreeRecord,
} from '../../../src/store/tree-records.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

// 0 "q" ─┬─ 1 "a1" ── 3 "q2"
//        └─ 2 "a2"
// 4 "q edited" ── 5 "b"
const nodes: TreeNode[] = [
  { seq: 0, parent: null, message: user('q') },
  { seq: 1, parent: 0, message: assistant('a1') },
  { seq: 2, parent: 0, message: assistant('a2') },
  { seq: 3, parent: 1, message: user('q2') },
  { seq: 4, parent: null, message: user('q edited') },
  { seq: 5, parent: 4, message: assistant('b') },
];

/** The record of the tree above with the path 0, 1, 3 active. */
const record = (over: Partial<TreeRecord> = {}): TreeRecord => ({
  version: 2,
  id: 's1',
  title: 'q',
  createdAt: 5,
  updatedAt: 6,
  messageCount: 3,
  revision: 4,
  kind: 'session',
  systemPrompt: 'Be terse.',
  nextSeq: 6,
  head: 3,
  choices: { [-1]: 0, 0: 1 },
  ...over,
});

describe('the tree fields of stored records', () => {
  it('reads a version 1 record as one path and leaves a version 2 record as it is', () => {
    const v1: SessionRecord = { version: 1, id: 's1', title: 't', createdAt: 1, updatedAt: 2, messageCount: 3, revision: 7, kind: 'session', systemPrompt: undefined };
    expect(upgradeRecord(v1)).toEqual({ ...v1, version: 2, nextSeq: 3, head: 2, choices: {} });
    expect(upgradeRecord({ ...v1, messageCount: 0 })).toMatchObject({ nextSeq: 0, head: -1 });
    const v2 = record();
    expect(upgradeRecord(v2)).toBe(v2);
  });

  it('places a version 2 message by its own fields and a version 1 message after the one before it', () => {
    const message = user('x');
    expect(placeOf({ version: 2, message, parent: 4, depth: 1 }, 5)).toEqual({ parent: 4, depth: 1 });
    expect(placeOf({ version: 2, message }, 0)).toEqual({ parent: null, depth: 0 });
    expect(placeOf({ version: 1, message }, 0)).toEqual({ parent: null, depth: 0 });
    expect(placeOf({ version: 1, message }, 3)).toEqual({ parent: 2, depth: 3 });
  });

  it('gives every message its depth', () => {
    expect(depthsOf(nodes)).toEqual([0, 1, 1, 2, 0, 1]);
    expect(depthsOf([])).toEqual([]);
  });

  it('appends after the head unless told where, and finds no place under a message that is not stored', () => {
    const stored: MessageRecord = { version: 2, message: assistant('a2'), parent: 0, depth: 1 };
    expect(appendPlace(undefined, undefined, undefined)).toEqual({ parent: null, depth: 0 });
    expect(appendPlace(record(), undefined, undefined)).toEqual({ parent: 3, depth: 3 });
    expect(appendPlace(record(), 3, undefined)).toEqual({ parent: 3, depth: 3 });
    expect(appendPlace(record(), null, undefined)).toEqual({ parent: null, depth: 0 });
    expect(appendPlace(record(), 2, stored)).toEqual({ parent: 2, depth: 2 });
    expect(appendPlace(record(), 7, undefined)).toBeUndefined();
  });

  it('makes the record of a new conversation from its first messages', () => {
    expect(appendedRecord('s2', undefined, { parent: null, depth: 0 }, [user('hello'), assistant('hi')], 1000)).toEqual({
      version: 2,
      id: 's2',
      title: 'hello',
      createdAt: 1000,
      updatedAt: 1000,
      messageCount: 2,
      revision: 1,
      kind: 'session',
      systemPrompt: undefined,
      nextSeq: 2,
      head: 1,
      choices: {},
    });
  });

  it('moves the head to the last message appended and keeps the choices when appending at the head', () => {
    expect(appendedRecord('s1', record(), { parent: 3, depth: 3 }, [assistant('a3'), user('q4')], 2000)).toEqual(
      record({ updatedAt: 2000, messageCount: 5, revision: 5, nextSeq: 8, head: 7 }),
    );
  });

  it('chooses a new branch at its fork', () => {
    expect(appendedRecord('s1', record(), { parent: 2, depth: 2 }, [user('q3')], 2000)).toEqual(
      record({ updatedAt: 2000, messageCount: 3, revision: 5, nextSeq: 7, head: 6, choices: { [-1]: 0, 0: 1, 2: 6 } }),
    );
    expect(appendedRecord('s1', record(), { parent: null, depth: 0 }, [user('again')], 2000).choices).toEqual({ [-1]: 6, 0: 1 });
  });

  it('counts an empty append as a write and changes nothing else', () => {
    expect(appendedRecord('s1', record(), { parent: 3, depth: 3 }, [], 2000)).toEqual(record({ updatedAt: 2000, revision: 5 }));
    expect(appendedRecord('s1', record(), { parent: 1, depth: 2 }, [], 2000)).toEqual(record({ updatedAt: 2000, revision: 5 }));
  });

  it('switches to the path through a message, down to the leaf chosen below it, and chooses it at every fork', () => {
    const tree: SessionTree = { head: 3, nodes, choices: { [-1]: 0, 0: 1 } };
    expect(switchedRecord(record(), tree, 2)).toEqual(record({ head: 2, messageCount: 2, revision: 5, choices: { [-1]: 0, 0: 2 } }));
    expect(switchedRecord(record(), tree, 4)).toEqual(record({ head: 5, messageCount: 2, revision: 5, choices: { [-1]: 4, 0: 1 } }));
    expect(switchedRecord(record(), tree, 0)).toEqual(record({ revision: 5 }));
  });
});
