import { DEFAULT_TOOLS, tool } from '../src/index.js';

/** The demo agent's system prompt. */
export const DEMO_SYSTEM_PROMPT = 'You are the pagent-web demo agent. Answer briefly; use tools when they help.';

/** Each city's temperature, under its name in each language of the demo (the model names it so). */
const TEMPS: Record<string, number> = {
  Paris: 18, 巴黎: 18, パリ: 18,
  Tokyo: 21, 东京: 21, 東京: 21,
  Berlin: 12, 柏林: 12, ベルリン: 12,
  Beijing: 9, 北京: 9,
};
let reminders = 0;

/**
 * The demo's tools: pagent's built-ins `clock` and `region`, the same `get_weather` that stands behind the
 * pagent corpus, and `create_reminder`, which needs the user's approval (the element shows Approve / Deny
 * on its card). The in-browser agent adds the workspace file tools.
 */
export const demoTools = [
  ...DEFAULT_TOOLS,
  tool<{ city: string; unit?: string }>({
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
    execute: ({ city, unit = 'celsius' }) => JSON.stringify({ city, temp: TEMPS[city] ?? 15, unit }),
  }),
  tool<{ text: string; in_minutes: number }>({
    name: 'create_reminder',
    description: 'Set a reminder for the user. Asks the user first.',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'What to remind the user of.' },
        in_minutes: { type: 'integer', description: 'When, in minutes from now.' },
      },
      required: ['text', 'in_minutes'],
      additionalProperties: false,
    },
    needsApproval: true,
    execute: ({ text, in_minutes }) => JSON.stringify({ id: `reminder-${++reminders}`, text, in_minutes }),
  }),
];
