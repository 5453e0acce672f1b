import { DEFAULT_TOOLS, tool } from '../src/index.js';

/** The demo agent's system prompt. */
export const DEMO_SYSTEM_PROMPT = 'You are the pagent-web demo agent. Answer briefly; use tools when they help.';

const TEMPS: Record<string, number> = { Paris: 18, Tokyo: 21, Berlin: 12 };

/**
 * The demo's tools: the same `get_weather` that stands behind the pagent corpus, and pagent's built-ins
 * `clock` and `region` (no MCP server needed). The in-browser agent adds the workspace file tools.
 */
export const demoTools = [
  ...DEFAULT_TOOLS,
  tool({
    name: 'get_weather',
    description: 'Look up the current weather for a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. "Paris".' },
        unit: { type: 'string', description: '"celsius" or "fahrenheit".' },
      },
      required: ['city'],
      additionalProperties: false,
    },
    execute: ({ city, unit = 'celsius' }: { city: string; unit?: string }) =>
      JSON.stringify({ city, temp: TEMPS[city] ?? 15, unit }),
  }),
];
