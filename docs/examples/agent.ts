// An in-browser Agent: the tool loop runs in this page against an OpenAI-compatible endpoint (here the
// demo's scripted model, so no key). The tool runs in the browser too.
import { Agent, LLM, tool } from 'pagent-web';

const getWeather = tool({
  name: 'get_weather',
  description: 'Look up the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => JSON.stringify({ city, temp: 18, unit: 'celsius' }),
});

export default async function run(target: HTMLElement): Promise<void> {
  const out = document.createElement('pre');
  out.className = 'output';
  target.append(out);
  const llm = new LLM('scripted', { baseURL: new URL('/demo/v1', location.href).href });
  const agent = new Agent({ llm, tools: [getWeather] });
  for await (const event of agent.events('Weather in Paris?')) {
    if (event.method === 'ToolCallBegin') out.append(`→ ${event.params.name} ${event.params.arguments}\n`);
    if (event.method === 'ToolResult') out.append(`← ${event.params.content}\n`);
    if (event.method === 'RunEnd') out.append(`\n${event.params.content}\n`);
  }
}
