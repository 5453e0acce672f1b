/**
 * A `{"type": …}` document (AG-UI events, AI SDK UI message parts): parsed once, its fields read with
 * small guards that throw `WireDecodeError` naming the document.
 */
import type { WireDecodeError } from '../../errors.js';
import type { UnknownEvent } from '../events.js';
import type { WireDecodeErrorClass } from './index.js';

export type Fields = Record<string, unknown>;

export const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One document being decoded: its fields, and what an error about it needs. */
export interface TypedDocument {
  doc: Fields;
  type: string;
  raw: string;
  lineNumber: number;
  /** The reader's error class (see `WireDecodeErrorClass`). */
  DecodeError: WireDecodeErrorClass;
}

/**
 * Parses a document that must be a JSON object with a string `type`; `what` names it in errors.
 *
 * @throws {WireDecodeError} `invalid-json`, or `not-an-event` for a non-object or a missing `type`.
 */
export function parseTyped(raw: string, lineNumber: number, what: string, DecodeError: WireDecodeErrorClass): TypedDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (err) {
    throw new DecodeError('invalid-json', `Invalid JSON: ${(err as Error).message}`, raw, lineNumber, err);
  }
  if (!isObject(doc)) throw new DecodeError('not-an-event', 'Not a JSON object', raw, lineNumber);
  const type = doc['type'];
  if (typeof type !== 'string') throw new DecodeError('not-an-event', `${what} without a string "type"`, raw, lineNumber);
  return { doc, type, raw, lineNumber, DecodeError };
}

/** A `WireDecodeError{reason: "invalid-params"}` about the document. */
export const invalid = (p: TypedDocument, message: string): WireDecodeError =>
  new p.DecodeError('invalid-params', `${p.type}: ${message}`, p.raw, p.lineNumber);

/** A required string field. */
export function str(p: TypedDocument, key: string): string {
  const value = p.doc[key];
  if (typeof value !== 'string') throw invalid(p, `"${key}" must be a string`);
  return value;
}

/** An optional string field (`null` is absent). */
export function optStr(p: TypedDocument, key: string): string | undefined {
  const value = p.doc[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(p, `"${key}" must be a string`);
  return value;
}

/** The document as an unknown event: params are its fields without `type`. */
export function unknownOf(p: TypedDocument): UnknownEvent {
  // fromEntries defines own properties, so a "__proto__" key stays an inert field.
  return { method: p.type, params: Object.fromEntries(Object.entries(p.doc).filter(([key]) => key !== 'type')), unknown: true };
}
