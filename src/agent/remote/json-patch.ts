/**
 * JSON Patch (RFC 6902) over plain JSON values, for AG-UI's `STATE_DELTA`: the patch applies to a copy,
 * so a patch that fails part-way leaves the state it was given unchanged (the RFC's "the entire patch
 * document fails" rule).
 */

/** One operation of a JSON Patch document. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Thrown by {@link applyJsonPatch}: the operation (index) that failed and why. */
export class JsonPatchError extends Error {
  override name = 'JsonPatchError' as const;
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(`JSON Patch operation ${index} failed: ${message}`);
  }
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** The reference tokens of a JSON Pointer (RFC 6901): `~1` is `/`, `~0` is `~`, in that order. */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`"${pointer}" is not a JSON Pointer`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** An array index token: `0` or digits without a leading zero (RFC 6901 §4). */
function arrayIndex(token: string, length: number, forInsert: boolean): number {
  if (forInsert && token === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > length || (!forInsert && index === length)) throw new Error(`index ${index} is out of bounds`);
  return index;
}

const own = (object: Record<string, unknown>, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** Deep copy of a JSON value (objects get no prototype surprises: `__proto__` stays an own key). */
function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isContainer(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: clone((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** JSON equality, as the `test` operation compares (object key order does not matter). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
  if (!isContainer(a) || !isContainer(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return keys.length === Object.keys(other).length && keys.every((key) => own(other, key) && equal((a as Record<string, unknown>)[key], other[key]));
}

/** The value at a pointer; throws when it does not exist. */
function get(document: unknown, path: string[]): unknown {
  let current = document;
  for (const token of path) {
    if (Array.isArray(current)) current = current[arrayIndex(token, current.length, false)];
    else if (isContainer(current) && own(current as Record<string, unknown>, token)) current = (current as Record<string, unknown>)[token];
    else throw new Error(`no value at "/${path.join('/')}"`);
  }
  return current;
}

/** The container holding the pointer's last token (the pointer must not be the root). */
function parentOf(document: unknown, path: string[]): Container {
  const parent = get(document, path.slice(0, -1));
  if (!isContainer(parent)) throw new Error(`"/${path.slice(0, -1).join('/')}" is not an object or array`);
  return parent;
}

function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a "__proto__" member stays data, never a prototype
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies one operation to `document` (mutated in place); returns the new root. */
function applyOne(document: unknown, operation: JsonPatchOperation): unknown {
  const path = tokens(operation.path);
  switch (operation.op) {
    case 'test':
      if (!equal(get(document, path), operation.value)) throw new Error(`the value at "${operation.path}" is not the one tested`);
      return document;
    case 'remove': {
      if (path.length === 0) throw new Error('cannot remove the whole document');
      const parent = parentOf(document, path);
      const last = path.at(-1)!;
      if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, false), 1);
      else if (own(parent, last)) delete parent[last];
      else throw new Error(`no value at "${operation.path}"`);
      return document;
    }
    case 'add':
    case 'replace':
    case 'move':
    case 'copy': {
      let value: unknown;
      if (operation.op === 'move' || operation.op === 'copy') {
        const from = tokens(operation.from);
        if (operation.op === 'move' && path.length > from.length && from.every((token, i) => token === path[i])) {
          throw new Error(`cannot move "${operation.from}" into itself`);
        }
        value = clone(get(document, from));
        if (operation.op === 'move') {
          if (from.length === path.length && from.every((token, i) => token === path[i])) return document;
          document = applyOne(document, { op: 'remove', path: operation.from });
        }
      } else value = clone((operation as { value: unknown }).value);
      if (path.length === 0) {
        if (operation.op === 'replace') get(document, path);
        return value;
      }
      const parent = parentOf(document, path);
      const last = path.at(-1)!;
      const insert = operation.op !== 'replace';
      if (Array.isArray(parent)) {
        const index = arrayIndex(last, parent.length, insert);
        if (insert) parent.splice(index, 0, value);
        else parent[index] = value;
      } else {
        if (!insert && !own(parent, last)) throw new Error(`no value at "${operation.path}" to replace`);
        setKey(parent, last, value);
      }
      return document;
    }
    default:
      throw new Error(`unknown operation ${JSON.stringify((operation as { op?: unknown }).op)}`);
  }
}

/**
 * Applies a JSON Patch to a copy of `document` and returns the patched copy; `document` is never changed.
 *
 * @throws {JsonPatchError} for a malformed operation, a path that does not exist, or a failed `test`
 * (the whole patch fails).
 */
export function applyJsonPatch(document: unknown, patch: readonly unknown[]): unknown {
  let result = clone(document);
  patch.forEach((operation, index) => {
    try {
      if (!isContainer(operation) || Array.isArray(operation) || typeof operation['op'] !== 'string' || typeof operation['path'] !== 'string') {
        throw new Error('an operation needs a string "op" and "path"');
      }
      const op = operation['op'];
      if ((op === 'add' || op === 'replace' || op === 'test') && !own(operation, 'value')) throw new Error(`"${op}" needs a "value"`);
      if ((op === 'move' || op === 'copy') && typeof operation['from'] !== 'string') throw new Error(`"${op}" needs a string "from"`);
      result = applyOne(result, operation as JsonPatchOperation);
    } catch (err) {
      throw new JsonPatchError(index, err instanceof Error ? err.message : String(err));
    }
  });
  return result;
}
