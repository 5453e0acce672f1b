/**
 * Page-supplied tool renderers: `renderers` maps a tool name (or `*`) to a function that turns the live
 * state of one call into a Lit template or a DOM node. A row is rendered again only when its call's state
 * changed (the timeline replaces that row's item; rows are guarded on it), so a renderer runs once per
 * state of each call, never per delta of unrelated text.
 */
import { html, type TemplateResult } from 'lit';
import { renderApproval } from './tool-card.js';
import type { ToolItem, ToolStatus } from '../timeline.js';
import type { PartContext } from './context.js';

/** What a tool renderer is given: one call's state. Every field is model- or tool-provided: untrusted. */
export interface ToolCallState {
  readonly tool_call_id: string;
  readonly name: string;
  /** The arguments parsed from JSON, or `undefined` when they do not parse (see `argumentsText`). */
  readonly arguments: unknown;
  /** The arguments as sent. */
  readonly argumentsText: string;
  readonly status: ToolStatus;
  /** The result text, once it came. */
  readonly result: string | undefined;
  /** The result parsed from JSON, when it is JSON. */
  readonly resultJson: unknown;
  /** How long the tool ran, when the source said. */
  readonly elapsed_ms: number | undefined;
  /** Approves the call (only while `status` is `awaiting-approval`). */
  approve(): void;
  /** Denies the call (only while `status` is `awaiting-approval`). */
  deny(): void;
}

/**
 * Renders one tool call. Return a Lit template (it escapes what it interpolates) or a DOM node, or
 * `undefined`/`null` to show the default card.
 */
export type ToolRenderer = (call: ToolCallState) => TemplateResult | Node | null | undefined;

/** Tool renderers by tool name; `*` renders every tool that has none of its own. */
export type ToolRenderers = Readonly<Record<string, ToolRenderer>>;

const parse = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The page's rendering of a tool row, or `undefined` for the default card (no renderer, it returned
 * nothing, or it threw: then `ctx.onRenderError` is told). While the call awaits approval the default
 * approve and deny buttons follow the custom rendering (the renderer may also call `approve`/`deny`).
 */
export function renderCustomTool(item: ToolItem, ctx: PartContext): TemplateResult | undefined {
  const renderers = ctx.toolRenderers;
  const renderer = renderers && (Object.hasOwn(renderers, item.name) ? renderers[item.name] : renderers['*']);
  if (typeof renderer !== 'function') return undefined;
  const decide = (approved: boolean): void => {
    if (item.status === 'awaiting-approval') ctx.onApproval(item.callId, approved);
  };
  let out: TemplateResult | Node | null | undefined;
  try {
    out = renderer({
      tool_call_id: item.callId,
      name: item.name,
      arguments: parse(item.arguments),
      argumentsText: item.arguments,
      status: item.status,
      result: item.result,
      resultJson: parse(item.result),
      elapsed_ms: item.elapsedMs,
      approve: () => decide(true),
      deny: () => decide(false),
    });
  } catch (error) {
    ctx.onRenderError?.(error, item.name);
    return undefined;
  }
  if (out === null || out === undefined) return undefined;
  return html`<section part="tool-call tool-call-${item.status} tool-custom" class="tool" data-status=${item.status} aria-label=${`${ctx.strings.tool}: ${item.name}`}>
    ${out}${renderApproval(item, ctx)}
  </section>`;
}
