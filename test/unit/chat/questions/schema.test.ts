import { describe, expect, it } from 'vitest';
import { controlName, questionForm, readAnswer, type QuestionForm } from '../../../../src/chat/questions/schema.js';

/** A submitted form: control name → value, as a browser's FormData holds it (unchecked boxes absent). */
function submitted(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return data;
}

const form = (schema: Record<string, unknown> | undefined): QuestionForm => questionForm(schema);

describe('questionForm', () => {
  it('gives a flat object one field per property: string, number, integer, boolean and enum, with titles, descriptions, required and defaults', () => {
    expect(
      form({
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name', description: 'As on your passport' },
          age: { type: 'integer', minimum: 0, maximum: 150 },
          height: { type: 'number', default: 1.7 },
          color: { type: 'string', enum: ['red', 'green'], default: 'green' },
          subscribe: { type: 'boolean', default: true },
        },
        required: ['name', 'color', 'nowhere'],
      }),
    ).toEqual({
      shape: 'object',
      fields: [
        { kind: 'text', name: 'name', label: 'Name', description: 'As on your passport', required: true },
        { kind: 'number', name: 'age', required: false, integer: true, min: 0, max: 150 },
        { kind: 'number', name: 'height', required: false, integer: false, initial: 1.7 },
        { kind: 'choice', name: 'color', required: true, choices: ['red', 'green'], initial: 1 },
        { kind: 'boolean', name: 'subscribe', required: false, initial: true },
      ],
    });
  });

  it('reads properties without "type": "object" as an object, and an object without properties as one with no fields', () => {
    expect(form({ properties: { a: { type: 'string' } } })).toEqual({ shape: 'object', fields: [{ kind: 'text', name: 'a', required: false }] });
    expect(form({ type: 'object' })).toEqual({ shape: 'object', fields: [] });
  });

  it('answers a single value schema with one field, and no schema with text', () => {
    expect(form({ type: 'boolean' })).toEqual({ shape: 'value', field: { kind: 'boolean', name: '', required: true, initial: false } });
    expect(form({ enum: [1, 2, 3] })).toEqual({ shape: 'value', field: { kind: 'choice', name: '', required: true, choices: [1, 2, 3] } });
    expect(form(undefined)).toEqual({ shape: 'value', field: { kind: 'text', name: '', required: true } });
  });

  it('falls back to JSON for what a simple form cannot say: nested objects, arrays, unions, references, odd enums', () => {
    for (const schema of [
      { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
      { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
      { type: 'object', properties: { ref: { $ref: '#/$defs/x' } } },
      { type: 'object', properties: { pick: { enum: [] } } },
      { type: 'object', properties: { pick: { enum: [{ a: 1 }] } } },
      { type: 'object', properties: 'not an object' },
      { type: 'array', items: { type: 'string' } },
      { type: ['string', 'null'] },
    ]) {
      expect(form(schema), JSON.stringify(schema)).toEqual({ shape: 'json' });
    }
  });
});

describe('readAnswer', () => {
  const profile = form({
    type: 'object',
    properties: {
      name: { type: 'string' },
      nickname: { type: 'string' },
      age: { type: 'integer' },
      height: { type: 'number' },
      color: { enum: ['red', 0, false, null] },
      subscribe: { type: 'boolean' },
    },
    required: ['name'],
  });

  it('types each value as its schema says: numbers as numbers, booleans from the checkbox, enum values as listed', () => {
    const data = submitted({ [controlName(0)]: 'Ada', [controlName(1)]: '', [controlName(2)]: '36', [controlName(3)]: '1.72', [controlName(4)]: '1', [controlName(5)]: 'on' });
    expect(readAnswer(profile, data)).toEqual({ name: 'Ada', age: 36, height: 1.72, color: 0, subscribe: true });
  });

  it('leaves out optional fields left empty; an unchecked box is false', () => {
    const data = submitted({ [controlName(0)]: 'Ada', [controlName(2)]: '', [controlName(4)]: '' });
    expect(readAnswer(profile, data)).toEqual({ name: 'Ada', subscribe: false });
    expect(readAnswer(profile, submitted({ [controlName(0)]: '', [controlName(4)]: '3' }))).toEqual({ name: '', color: null, subscribe: false });
  });

  it('keeps a field named __proto__ as a field of the answer', () => {
    const shaped = form(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>);
    expect(shaped).toEqual({ shape: 'object', fields: [{ kind: 'text', name: '__proto__', required: false }] });
    const answer = readAnswer(shaped, submitted({ [controlName(0)]: 'x' })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(answer, '__proto__')?.value).toBe('x');
  });

  it('answers a single value with the value, and JSON with the parsed text (throwing on text that is not JSON)', () => {
    expect(readAnswer(form({ type: 'number' }), submitted({ [controlName(0)]: '2.5' }))).toBe(2.5);
    expect(readAnswer(form(undefined), submitted({ [controlName(0)]: 'blue' }))).toBe('blue');
    const json = form({ type: 'array' });
    expect(readAnswer(json, submitted({ json: '[1, {"a": "b"}]' }))).toEqual([1, { a: 'b' }]);
    expect(() => readAnswer(json, submitted({ json: '[1,' }))).toThrow(SyntaxError);
  });
});
