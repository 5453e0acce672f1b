/**
 * `checkArguments`: a tool call's parsed arguments against the tool's JSON Schema (a small, hand-written
 * subset). Public, so it stays in the agent's own chunk (a module both the SDK's index and a lazy chunk
 * import lands in the chunk loaded at once); the agent hands it to ./tool-call.ts.
 */

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function where(path: string): string {
  return path === '' ? 'arguments' : `'${path}'`;
}

function check(value: unknown, schema: Schema, path: string, errors: string[]): void {
  const type = schema['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
    if (types.length > 0 && !types.some((t) => matchesType(value, t))) {
      errors.push(`${where(path)} must be ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    errors.push(`${where(path)} must be one of ${JSON.stringify(allowed)}`);
  }
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value)) {
    errors.push(`${where(path)} must be ${JSON.stringify(schema['const'])}`);
  }
  if (isObject(value)) checkObject(value, schema, path, errors);
  if (Array.isArray(value) && isObject(schema['items'])) {
    const items = schema['items'];
    value.forEach((item, i) => check(item, items, `${path}[${i}]`, errors));
  }
}

function checkObject(value: Record<string, unknown>, schema: Schema, path: string, errors: string[]): void {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const prefix = path === '' ? '' : `${path}.`;
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const key of required) {
    if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(value, key)) {
      errors.push(`missing required property '${prefix}${key}'`);
    }
  }
  const extra = schema['additionalProperties'];
  for (const key of Object.keys(value)) {
    const sub = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (isObject(sub)) check(value[key], sub, `${prefix}${key}`, errors);
    else if (sub === undefined && extra === false) errors.push(`unexpected property '${prefix}${key}'`);
    else if (sub === undefined && isObject(extra)) check(value[key], extra, `${prefix}${key}`, errors);
  }
}

/**
 * Checks parsed arguments against a tool's JSON Schema and returns the problems found (empty when
 * valid). Supported: `type` (one or a list; `integer` means a whole number), `enum`, `const`,
 * `properties`, `required`, `additionalProperties` (`false` or a schema) and `items`, recursively.
 * Other keywords (`anyOf`, `pattern`, `minimum` …) are not checked: the tool sees such values as sent.
 */
export function checkArguments(args: unknown, schema: Record<string, unknown>): string[] {
  const errors: string[] = [];
  check(args, schema, '', errors);
  return errors;
}
