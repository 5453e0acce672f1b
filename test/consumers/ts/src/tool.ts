// tool() infers execute's argument type from a literal `parameters` schema.
import { Agent, tool, type Tool } from 'pagent-web';
import { expectTypeOf } from 'expect-type';

const getWeather = tool({
  name: 'get_weather',
  description: 'Look up the current weather for a city.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer' },
      hourly: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      near: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'] },
      note: { type: ['string', 'null'] },
      kind: { const: 'weather' },
      extra: { type: 'object' },
    },
    required: ['city', 'days'],
  },
  execute: async (args, { signal }) => {
    expectTypeOf(args).toEqualTypeOf<{
      city: string;
      days: number;
      unit?: 'celsius' | 'fahrenheit';
      hourly?: boolean;
      tags?: string[];
      near?: { lat: number; lon: number };
      note?: string | null;
      kind?: 'weather';
      extra?: Record<string, unknown>;
    }>();
    expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
    return args.city;
  },
  needsApproval: (args) => args.days > 3,
});
expectTypeOf(getWeather.execute).parameter(0).toHaveProperty('city').toEqualTypeOf<string>();

// an explicit argument type still works, and wins over the schema
const add = tool<{ a: number; b: number }>({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => String(a + b),
});
expectTypeOf(add).toEqualTypeOf<Tool<{ a: number; b: number }>>();

// a schema that is not a literal object schema leaves the arguments open
const schema: Record<string, unknown> = { type: 'object' };
const open = tool({ name: 'open', description: 'Anything.', parameters: schema, execute: (args) => Object.keys(args).length });
expectTypeOf(open).toEqualTypeOf<Tool<Record<string, unknown>>>();

tool({
  name: 'typed',
  description: 'A required string.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  // @ts-expect-error city is a string, not a number
  execute: ({ city }) => city.toFixed(1),
});

// tools of any argument type go to one Agent
declare const llm: ConstructorParameters<typeof Agent>[0]['llm'];
new Agent({ llm, tools: [getWeather, add, open] });
