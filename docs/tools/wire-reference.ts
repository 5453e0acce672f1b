/**
 * The wire reference (docs/reference/wire-events.md), generated from the schema the decoder validates
 * with: the `SCHEMA_TEXT` table of src/wire/events.ts, read from the source as the compiler parses it, so
 * the page lists exactly the methods and fields `validateEvent` checks. Each method's example line is
 * written by `encodeEventLine` and must decode again with `decodeEventLine`.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { decodeEventLine, encodeEventLine } from '../../src/wire/codec.js';
import type { WireEvent } from '../../src/wire/events.js';

const EVENTS_FILE = new URL('../../src/wire/events.ts', import.meta.url);

/** One field of a method, as the schema table gives it. */
export interface SchemaField {
  name: string;
  /** The schema's type letter, lower case. */
  type: string;
  required: boolean;
}

/** Reads `SCHEMA_TEXT` (and the string constants it names) from src/wire/events.ts. */
export function readSchema(source = readFileSync(EVENTS_FILE, 'utf8')): Map<string, SchemaField[]> {
  const file = ts.createSourceFile('events.ts', source, ts.ScriptTarget.Latest, true);
  const strings = new Map<string, string>();
  let table: ts.ObjectLiteralExpression | undefined;
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
      if (ts.isStringLiteralLike(decl.initializer)) strings.set(decl.name.text, decl.initializer.text);
      if (decl.name.text === 'SCHEMA_TEXT' && ts.isObjectLiteralExpression(decl.initializer)) table = decl.initializer;
    }
  }
  if (!table) throw new Error('src/wire/events.ts has no SCHEMA_TEXT table');
  const schema = new Map<string, SchemaField[]>();
  for (const prop of table.properties) {
    if (!ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.name)) throw new Error(`SCHEMA_TEXT: unexpected entry ${prop.getText()}`);
    const value = prop.initializer;
    const text = ts.isStringLiteralLike(value) ? value.text : ts.isIdentifier(value) ? strings.get(value.text) : undefined;
    if (text === undefined) throw new Error(`SCHEMA_TEXT.${prop.name.text}: not a string or a string constant`);
    schema.set(
      prop.name.text,
      text.split(' ').map((field) => {
        const [name, type] = field.split(':') as [string, string];
        return { name, type: type.toLowerCase(), required: type === type.toLowerCase() };
      }),
    );
  }
  return schema;
}

/** What each type letter accepts, as the reference shows it. */
const TYPES: Record<string, string> = {
  s: '`string`',
  n: '`number` (finite)',
  b: '`boolean`',
  c: '`ToolCall[]`: `{id, type: "function", function: {name, arguments}}` each',
  u: '`Usage | null`: an object as the provider sent it, or `null`',
};

/** What each method says; a method missing here fails the generator, so a new one gets its sentence. */
const ABOUT: Record<string, string> = {
  RunBegin: 'A run starts: the user input it answers.',
  TurnBegin: 'A turn starts: one model call, counted from 0 in the run.',
  TextDelta: 'The next piece of the answer.',
  ReasoningDelta: 'The next piece of the reasoning (thinking) shown before the answer.',
  StepEnd: 'One model call is done: its whole text, reasoning, tool calls and usage.',
  ToolCallBegin: 'The model calls a tool. `arguments` is the JSON text the model wrote, which may be invalid.',
  ToolResult: 'A tool call\'s result. `ok` absent means `true`; `elapsed_ms` is the tool\'s own time.',
  TurnEnd: 'A turn is over; `stopped` is `true` when the run stops after it.',
  RunEnd: 'The run is over: always its last event. `content` is the last step\'s content.',
  RunError: 'The run failed; its `RunEnd` follows. `code` is `http`, `network`, `provider`, `truncated`, `timeout`, `decode` or a server\'s own.',
};

/** Example values by field name (one run answering "Weather in Paris?"), else by type. */
const SAMPLES: Record<string, unknown> = {
  user_input: 'Weather in Paris?',
  turn: 0,
  text: 'It is 18° in Paris.',
  content: 'It is 18° in Paris.',
  reasoning_content: '',
  tool_calls: [],
  usage: null,
  tool_call_id: 'call_1',
  name: 'get_weather',
  arguments: '{"city":"Paris"}',
  stopped: true,
  stop_reason: 'no_tool_calls',
  message: 'The server answered 502 Bad Gateway',
  code: 'http',
  where: 'llm',
  status: 502,
  ok: true,
  elapsed_ms: 12,
  truncated: false,
};
const BY_TYPE: Record<string, unknown> = { s: 'text', n: 1, b: true, c: [], u: null };

const PER_METHOD: Record<string, Record<string, unknown>> = {
  ToolResult: { content: '{"city":"Paris","temp":18,"unit":"celsius"}' },
  TurnEnd: { stop_reason: 'no_tool_calls' },
};

/** The example event of `method`: every field, required and optional, with a sample value. */
function exampleOf(method: string, fields: SchemaField[]): WireEvent {
  const params: Record<string, unknown> = {};
  for (const f of fields) params[f.name] = PER_METHOD[method]?.[f.name] ?? (f.name in SAMPLES ? SAMPLES[f.name] : BY_TYPE[f.type]);
  return { method, params } as WireEvent;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The whole page, as Markdown. */
export function wireReference(schema = readSchema()): string {
  const out: string[] = [
    '# Wire reference',
    '',
    '*Generated by `npm run docs:reference` from the `SCHEMA_TEXT` table of src/wire/events.ts; do not edit.*',
    '',
    'Every event a stream carries, as the decoder validates it: each method, each param, whether it is required,',
    'and its type. A line whose required param is missing or of the wrong type is rejected (`WireDecodeError`,',
    'reason `invalid-params`): streams skip it and report it to `onDecodeError`, and `<pagent-chat src>` warns',
    'about it once on the console and dispatches a `pagent-error`. An optional param that is `null` counts as',
    'absent; one of the wrong type is dropped and the event kept. Params not listed here are kept as they came.',
    'Why and how runs end: [the wire format](../wire.md).',
    '',
    'Each line is JSON-RPC 2.0: `{"jsonrpc": "2.0", "method": …, "params": {…}}`, one a line (NDJSON) or one',
    'per SSE `data:` message. The example lines are written by `encodeEventLine` (compact JSON); a space after',
    '`:` and `,`, as Python\'s `json.dumps` writes it, reads the same.',
    '',
    '| method | required params | optional params |',
    '| --- | --- | --- |',
  ];
  for (const [method, fields] of schema) {
    const list = (required: boolean): string => fields.filter((f) => f.required === required).map((f) => `\`${f.name}\``).join(', ') || '—';
    out.push(`| [\`${method}\`](#${method.toLowerCase()}) | ${list(true)} | ${list(false)} |`);
  }
  for (const [method, fields] of schema) {
    const about = ABOUT[method];
    if (!about) throw new Error(`docs/tools/wire-reference.ts: no sentence for the new method ${method}`);
    const line = encodeEventLine(exampleOf(method, fields));
    decodeEventLine(line); // the example is a valid line, or the generator fails
    out.push('', `## ${method}`, '', about, '', '| param | required | type |', '| --- | --- | --- |');
    for (const f of fields) {
      const type = TYPES[f.type];
      if (!type) throw new Error(`docs/tools/wire-reference.ts: no description for the schema type "${f.type}"`);
      out.push(`| \`${f.name}\` | ${f.required ? 'required' : 'optional'} | ${cell(type)} |`);
    }
    out.push('', '```json', line.trimEnd(), '```');
  }
  return out.join('\n') + '\n';
}
