// The page draws a tool's calls itself: `renderers` maps a tool name to a function of the call's live
// state. Here an in-browser Agent calls get_weather and the page shows a small card instead of the default.
import 'pagent-web/pagent-chat.js';
import { html } from 'lit';
import { Agent, LLM, tool } from 'pagent-web';

const getWeather = tool({
  name: 'get_weather',
  description: 'Look up the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => JSON.stringify({ city, temp: 21, unit: 'celsius' }),
});

export default async function run(target: HTMLElement): Promise<void> {
  const chat = document.createElement('pagent-chat');
  chat.agent = new Agent({ llm: new LLM('scripted', { baseURL: new URL('/demo/v1', location.href).href }), tools: [getWeather] });
  chat.renderers = {
    get_weather: (call) => {
      // the model wrote the arguments and the tool the result: JSON of any shape, so check each value's type
      const args = call.arguments as { city?: unknown } | undefined;
      const result = call.resultJson as { temp?: unknown } | undefined;
      const city = typeof args?.city === 'string' ? args.city : '…';
      const temp = typeof result?.temp === 'number' ? `${result.temp}°C` : '?';
      return html`<div class="weather-card">☀ ${city}: ${call.status === 'ok' ? temp : call.status}</div>`;
    },
  };
  target.append(chat);
  const ended = new Promise((resolve) => chat.addEventListener('pagent-run-end', resolve, { once: true }));
  chat.send('Weather in Tokyo?');
  await ended;
}
