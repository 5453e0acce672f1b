/**
 * The arguments type `tool()` reads from a literal JSON Schema: the keywords `checkArguments` checks
 * before `execute` runs — `type` (one or a list; `integer` is a number), `enum`, `const`, `properties`,
 * `required` and `items` — so the inferred type is what `execute` receives. Other keywords add nothing.
 */

/** The JSON Schema type names `checkArguments` knows. */
export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

/** The shape of a tool's `parameters` that `tool()` infers from: an object schema. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
}

interface ScalarTypes {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  null: null;
}

type Simplify<T> = { -readonly [K in keyof T]: T[K] } & {};

type ObjectArgs<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { [K in keyof P & RequiredKeys<S>]: SchemaArgs<P[K]> } & {
        [K in Exclude<keyof P, RequiredKeys<S>>]?: SchemaArgs<P[K]>;
      }
    >
  : Record<string, unknown>;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ArrayArgs<S> = S extends { readonly items: infer I } ? SchemaArgs<I>[] : unknown[];

type TypeArgs<T, S> = T extends 'object'
  ? ObjectArgs<S>
  : T extends 'array'
    ? ArrayArgs<S>
    : T extends keyof ScalarTypes
      ? ScalarTypes[T]
      : unknown;

/**
 * The value a literal JSON Schema admits: `{type: 'object', properties: {city: {type: 'string'}},
 * required: ['city']}` → `{ city: string }`; properties not in `required` are optional; `enum` and
 * `const` give literal types; a `type` list gives a union. Unknown shapes give `unknown`.
 */
export type SchemaArgs<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? T extends readonly (infer U)[]
        ? TypeArgs<U, S>
        : TypeArgs<T, S>
      : unknown;
