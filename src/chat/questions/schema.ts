/**
 * The form of a question, read from its `responseSchema` (JSON Schema), and the answer read back from the
 * submitted form. Only what a simple form can say is rendered as fields: a flat object of strings, numbers,
 * integers, booleans and enums (or one such value). Anything else (nested objects, arrays, `anyOf`, `$ref`…)
 * is answered as JSON text, checked only for being JSON: the back end validates the payload itself.
 */

/** A value an enum lists. */
export type Choice = string | number | boolean | null;

/** One field of a question's form. Names are the payload's keys; controls are named by index. */
export type QuestionField =
  | { kind: 'text'; name: string; label?: string; description?: string; required: boolean; initial?: string }
  | { kind: 'number'; name: string; label?: string; description?: string; required: boolean; integer: boolean; min?: number; max?: number; initial?: number }
  | { kind: 'boolean'; name: string; label?: string; description?: string; required: boolean; initial: boolean }
  | { kind: 'choice'; name: string; label?: string; description?: string; required: boolean; choices: Choice[]; initial?: number };

/**
 * How a question is answered: `fields` of an object (the payload is that object), one `value` (the
 * payload is the value: a schema of a single string, number, boolean or enum, or no schema at all, which
 * is answered with text), or `json` text parsed as the payload.
 */
export type QuestionForm = { shape: 'object'; fields: QuestionField[] } | { shape: 'value'; field: QuestionField } | { shape: 'json' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isChoice = (v: unknown): v is Choice => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The field for one schema, or `undefined` when a simple control cannot answer it. */
function fieldOf(name: string, schema: unknown, required: boolean): QuestionField | undefined {
  if (!isRecord(schema)) return undefined;
  const label = text(schema['title']);
  const description = text(schema['description']);
  const base = { name, required, ...(label ? { label } : {}), ...(description ? { description } : {}) };
  const given = schema['default'];
  const choices = schema['enum'];
  if (Array.isArray(choices)) {
    if (choices.length === 0 || !choices.every(isChoice)) return undefined;
    const initial = choices.findIndex((c) => c === given);
    return { kind: 'choice', ...base, choices, ...(initial >= 0 ? { initial } : {}) };
  }
  switch (schema['type']) {
    case 'string':
      return { kind: 'text', ...base, ...(typeof given === 'string' ? { initial: given } : {}) };
    case 'number':
    case 'integer': {
      const min = finite(schema['minimum']);
      const max = finite(schema['maximum']);
      const initial = finite(given);
      return {
        kind: 'number',
        ...base,
        integer: schema['type'] === 'integer',
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
        ...(initial !== undefined ? { initial } : {}),
      };
    }
    case 'boolean':
      return { kind: 'boolean', ...base, initial: given === true };
    default:
      return undefined;
  }
}

/** Reads a question's `responseSchema` into the form that answers it. */
export function questionForm(schema: Record<string, unknown> | undefined): QuestionForm {
  if (schema === undefined) return { shape: 'value', field: { kind: 'text', name: '', required: true } };
  const properties = schema['properties'];
  if (schema['type'] === 'object' || (schema['type'] === undefined && isRecord(properties))) {
    if (properties !== undefined && !isRecord(properties)) return { shape: 'json' };
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((n): n is string => typeof n === 'string') : []);
    const fields: QuestionField[] = [];
    for (const [name, property] of Object.entries(properties ?? {})) {
      const field = fieldOf(name, property, required.has(name));
      if (!field) return { shape: 'json' };
      fields.push(field);
    }
    return { shape: 'object', fields };
  }
  const field = fieldOf('', schema, true);
  return field ? { shape: 'value', field } : { shape: 'json' };
}

/** The control name of field `index` (property names may be anything; control names stay plain). */
export const controlName = (index: number): string => `f${index}`;

/** The typed value of one field in the submitted form; `undefined` when an optional field was left empty. */
function valueOf(field: QuestionField, data: FormData, index: number): unknown {
  const raw = data.get(controlName(index));
  if (field.kind === 'boolean') return raw !== null;
  const typed = typeof raw === 'string' ? raw : '';
  if (typed === '' && field.kind !== 'text') return undefined;
  if (field.kind === 'number') return Number(typed);
  if (field.kind === 'choice') return field.choices[Number(typed)];
  return typed === '' && !field.required ? undefined : typed;
}

/**
 * The payload of a submitted form: for `object`, the answered fields under their names (optional fields
 * left empty are left out); for `value`, the one value; for `json`, the parsed text.
 *
 * @throws {SyntaxError} when the JSON text does not parse.
 */
export function readAnswer(form: QuestionForm, data: FormData): unknown {
  if (form.shape === 'json') return JSON.parse(String(data.get('json') ?? ''));
  if (form.shape === 'value') return valueOf(form.field, data, 0);
  const entries: Array<[string, unknown]> = [];
  form.fields.forEach((field, index) => {
    const value = valueOf(field, data, index);
    if (value !== undefined) entries.push([field.name, value]);
  });
  // fromEntries defines own properties: a field named "__proto__" stays a field
  return Object.fromEntries(entries);
}
