/**
 * The demo's rendering of `get_weather` calls: a small card with the city, the temperature and the
 * call's state, through the element's `renderers` property. The arguments and result are untrusted
 * model and tool output: the Lit template binds them as text.
 */
import { html } from 'lit';
import type { ToolCallState, ToolRenderers } from '../src/chat/element.js';

function weatherCard(call: ToolCallState): ReturnType<typeof html> {
  const args = call.arguments as { city?: unknown } | undefined;
  const data = call.resultJson as { temp?: unknown; unit?: unknown } | undefined;
  const city = typeof args?.city === 'string' ? args.city : '…';
  const temp = typeof data?.temp === 'number' ? `${data.temp}°${data.unit === 'fahrenheit' ? 'F' : 'C'}` : undefined;
  return html`<div
    part="weather-card"
    style="display: flex; align-items: baseline; gap: 12px; padding: 10px 14px; border-radius: 10px;
      background: linear-gradient(135deg, #2f6fdb, #5aa0f2); color: #fff; font: 15px/1.3 system-ui, sans-serif"
  >
    <span style="font-size: 28px" aria-hidden="true">${temp ? '☀' : '…'}</span>
    <span style="display: grid">
      <strong part="weather-city">${city}</strong>
      <span part="weather-temp">${temp ?? (call.status === 'failed' ? call.result : call.status)}</span>
    </span>
  </div>`;
}

/** Renderers for the demo's `<pagent-chat>`. */
export const demoRenderers: ToolRenderers = { get_weather: weatherCard };
