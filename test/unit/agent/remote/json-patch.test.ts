// JSON Patch as RFC 6902 specifies it: the examples of its Appendix A, and the rule that a patch that fails
// changes nothing.
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from '../../../../src/agent/remote/json-patch.js';

describe('applyJsonPatch: RFC 6902 Appendix A', () => {
  const cases: Array<[title: string, doc: unknown, patch: unknown[], result: unknown]> = [
    ['A.1 adding an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    ['A.2 adding an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['A.4 removing an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['A.5 replacing a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['A.7 moving an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    ['A.10 adding a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['A.11 ignoring unrecognized elements', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    ['A.16 adding an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
    ['replacing the whole document', { a: 1 }, [{ op: 'replace', path: '', value: [1, 2] }], [1, 2]],
    ['copying a value', { a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
  ];
  for (const [title, doc, patch, result] of cases) {
    it(title, () => {
      const before = JSON.stringify(doc);
      expect(applyJsonPatch(doc, patch)).toEqual(result);
      expect(JSON.stringify(doc)).toBe(before);
    });
  }

  const failures: Array<[title: string, doc: unknown, patch: unknown[]]> = [
    ['A.9 testing a value: error', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
    ['A.12 adding to a nonexistent target', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
    ['A.13 invalid JSON Patch document (no value)', { foo: 'bar' }, [{ op: 'add', path: '/baz' }]],
    ['A.15 comparing strings and numbers', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]],
    ['an index past the end', { a: [1] }, [{ op: 'add', path: '/a/3', value: 2 }]],
    ['a leading zero in an index', { a: [1, 2] }, [{ op: 'remove', path: '/a/01' }]],
    ['moving a value into itself', { a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]],
    ['replacing a member that is not there', { a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]],
    ['an unknown operation', { a: 1 }, [{ op: 'frobnicate', path: '/a' }]],
    ['a path that is not a pointer', { a: 1 }, [{ op: 'remove', path: 'a' }]],
  ];
  for (const [title, doc, patch] of failures) {
    it(`${title}: the whole patch fails and the document is unchanged`, () => {
      const before = JSON.stringify(doc);
      expect(() => applyJsonPatch(doc, [{ op: 'add', path: '/first', value: true }, ...patch])).toThrow(JsonPatchError);
      expect(JSON.stringify(doc)).toBe(before);
    });
  }

  it('keeps "__proto__" members as data, never as a prototype', () => {
    const patched = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(patched)).toEqual(['__proto__']);
  });

  it('names the operation that failed', () => {
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/a' }, { op: 'remove', path: '/a' }])).toThrow(/operation 1 failed: no value at "\/a"/);
  });
});
