/**
 * Page-supplied tool renderers: `renderers` maps a tool name (or `*`) to a function that turns the live
 * state of one call into a Lit template or a DOM node. A row is rendered again only when its call's state
 * changed (the timeline replaces that row's item; rows are guarded on it), so a renderer runs once per
 * state of each call, never per delta of unrelated text.
 *
 * A renderer is drawn apart from the element's own template. Lit commits every value of a template
 * inside the element's one update, so a single value that failed to commit (an object imitating a Lit
 * template, a Symbol, the element itself) used to throw out of that update and of every later one. Here
 * the call's JSON is checked before the renderer sees it, the renderer's output is checked before it is
 * drawn, and it is drawn by a `render()` of its own into a container of its own: whatever fails, that row
 * shows the default card, the page is told once, and the element's update goes on.
 */
import type { RootPart, TemplateResult, html, render } from 'lit';
import type { AsyncDirective, ChildPart, DirectiveResult, directive } from 'lit/async-directive.js';
import type { renderApproval, renderToolCard } from './card.js';
import { litKeyIn, outputProblem } from './lit-impostors.js';
import { describeThrown, rendererFailure } from './renderer-failure.js';
import type { ToolItem, ToolStatus } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';

/**
 * What a tool renderer is given: one call's state. Every field is model- or tool-provided: untrusted.
 * JSON carrying a key Lit reserves for its own objects (`_$litType$`, `_$litDirective$`, `_$litStatic$`)
 * never reaches a renderer: such a call gets the default card.
 */
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
 * Renders one tool call. Return a Lit template (it escapes what it interpolates) or a DOM node of your own
 * (a node already on the page is refused), or `undefined`/`null` to show the default card. Anything else,
 * a throw, or output that Lit cannot draw gets the default card and a `pagent-error`.
 */
export type ToolRenderer = (call: ToolCallState) => TemplateResult | Node | null | undefined;

/** Tool renderers by tool name; `*` renders every tool that has none of its own. */
export type ToolRenderers = Readonly<Record<string, ToolRenderer>>;

/** A tool call's JSON text parsed (`undefined` when it is not JSON), and the Lit key it carries, if any. */
function parse(text: string | undefined): { value: unknown; litKey?: string | undefined } {
  if (text === undefined) return { value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { value: undefined };
  }
  return { value, litKey: litKeyIn(value) };
}

/** Why a row shows the default card instead of the renderer's output ("failed: …", "was not called: …"), and what was thrown, if anything. */
class Failure {
  constructor(
    readonly reason: string,
    readonly cause?: unknown,
  ) {}
}

/**
 * What this chunk takes from the element's bundle: Lit and the default card. (A chunk that imported them
 * would make the bundler split them out of the element's first load into a shared chunk of their own.)
 */
export interface ToolRenderingParts {
  html: typeof html;
  render: typeof render;
  AsyncDirective: typeof AsyncDirective;
  directive: typeof directive;
  renderToolCard: typeof renderToolCard;
  renderApproval: typeof renderApproval;
}

/**
 * Makes the drawing of a tool row through `ctx.toolRenderers`: the page's rendering, else the default card
 * (also when the renderer returned nothing, or failed: then `ctx.onRenderError` is told, once until the
 * row renders again). While the call awaits approval the default approve and deny buttons follow the
 * custom rendering (the renderer may also call `approve`/`deny`).
 */
export function createToolRendering(parts: ToolRenderingParts): (item: ToolItem, ctx: RowContext) => DirectiveResult {
  const { html, render, renderToolCard, renderApproval } = parts;

  class ToolRenderingDirective extends parts.AsyncDirective {
    /** Where the renderer's output is drawn, by a `render()` of its own; a new one after a failure. */
    private container: HTMLElement | undefined;
    private root: RootPart | undefined;
    /** The last update showed the default card after a failure (reported once until a rendering succeeds). */
    private failed = false;

    render(item: ToolItem, ctx: RowContext): TemplateResult {
      return renderToolCard(item, ctx);
    }

    override update(part: ChildPart, [item, ctx]: [ToolItem, RowContext]): TemplateResult {
      let drawn: HTMLElement | Failure | undefined;
      try {
        drawn = this.draw(item, ctx, part.options?.host as HTMLElement | undefined);
      } catch (error) {
        // the renderer threw, or a getter of what it returned did
        drawn = new Failure(`failed: ${describeThrown(error)}`, error);
      }
      if (drawn !== undefined && !(drawn instanceof Failure)) {
        this.failed = false;
        return html`<section part="tool-call tool-call-${item.status} tool-custom" class="tool" data-status=${item.status} aria-label=${`${ctx.strings.tool}: ${item.name}`}>
          ${drawn}${renderApproval(item, ctx)}
        </section>`;
      }
      this.drop();
      if (drawn && !this.failed) {
        this.failed = true;
        ctx.onRenderError?.(rendererFailure(item.name, drawn.reason), drawn.cause);
      }
      return renderToolCard(item, ctx);
    }

    /** Runs the renderer and draws its output: the container, `undefined` for the default card, or why it failed. */
    private draw(item: ToolItem, ctx: RowContext, host: HTMLElement | undefined): HTMLElement | Failure | undefined {
      const renderers = ctx.toolRenderers;
      const renderer = renderers && (Object.hasOwn(renderers, item.name) ? renderers[item.name] : renderers['*']);
      if (typeof renderer !== 'function') return undefined;
      const args = parse(item.arguments);
      const result = parse(item.result);
      const litKey = args.litKey ?? result.litKey;
      if (litKey !== undefined) {
        const what = args.litKey !== undefined ? "the call's arguments carry" : "the call's result carries";
        return new Failure(`was not called: ${what} "${litKey}", a key Lit reserves for its own objects`);
      }
      const decide = (approved: boolean): void => {
        if (item.status === 'awaiting-approval') ctx.onApproval(item.callId, approved);
      };
      const output: unknown = renderer({
        tool_call_id: item.callId,
        name: item.name,
        arguments: args.value,
        argumentsText: item.arguments,
        status: item.status,
        result: item.result,
        resultJson: result.value,
        elapsed_ms: item.elapsedMs,
        approve: () => decide(true),
        deny: () => decide(false),
      });
      if (output === null || output === undefined) return undefined;
      const problem = outputProblem(output, host, this.container);
      if (problem !== undefined) return new Failure(`failed: ${problem}`);
      let container = this.container;
      if (!container) {
        container = (host?.ownerDocument ?? document).createElement('div');
        // a box of its own would change the layout of the page's rendering inside the card
        container.style.display = 'contents';
      }
      // a render that throws may leave the container's Lit state half done: it is not used again
      this.container = undefined;
      try {
        this.root = render(output, container, { host });
      } catch (error) {
        return new Failure(`failed: its output could not be drawn: ${describeThrown(error)}`, error);
      }
      this.container = container;
      return container;
    }

    /** Forgets the container and tells the directives drawn in it that they left the page. */
    private drop(): void {
      const root = this.root;
      this.root = undefined;
      this.container = undefined;
      this.connect(root, false);
    }

    private connect(root: RootPart | undefined, connected: boolean): void {
      try {
        root?.setConnected(connected);
      } catch {
        // a directive of the page's output failed to hear it; the row is drawn all the same
      }
    }

    // the output's own directives (until, ref, …) hear when the row leaves the page and comes back
    protected override disconnected(): void {
      this.connect(this.root, false);
    }

    protected override reconnected(): void {
      this.connect(this.root, true);
    }
  }

  return parts.directive(ToolRenderingDirective);
}
