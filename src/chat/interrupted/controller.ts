/**
 * An answer a reload, a crash or a closed tab cut, in `<pagent-chat>` (a chunk loaded when a stored
 * conversation opens with a turn in flight that no tab runs): the conversation shows it as it was saved
 * — its text and reasoning, its tool calls with the results that came, calls that waited for approval
 * waiting again — marked interrupted, with **Continue**, which runs the agent's continue of that turn.
 * Approving or denying a call that waited does the same, with that answer given.
 */
import type { TemplateResult } from 'lit';
import type { ChatMessage } from '../../agent/messages.js';
import type { InterruptedTurn } from '../../store/turn-pieces.js';
import type { ApprovalRequest } from '../runs/agent-runs.js';
import type { ChatHost } from '../chat-host.js';
import { createChatEvent } from '../events.js';
import { setApproval } from '../timeline/commands.js';
import { timelineFromMessages } from '../timeline/rebuild.js';
import type { RunEndItem, TimelineState } from '../timeline/items.js';
import { interruptedStrings } from './strings.js';
import { conversationLock, lockHeld } from '../tabs/lock.js';

/** The interrupted turn of the conversation shown, if any. */
export class InterruptedTurns {
  /** The stored messages before the turn, the turn, and the key of the run end that marks it. */
  private shown: { messages: readonly ChatMessage[]; turn: InterruptedTurn; endKey: string } | undefined;

  constructor(private readonly host: ChatHost) {}

  /** Changes when what the run end renders may change (the element makes a new row context then). */
  get stamp(): string {
    return `${this.shown?.endKey} ${this.canContinue}`;
  }

  /** The element has an agent and no run is going. */
  private get canContinue(): boolean {
    return Boolean(this.host.el.agent) && !this.host.el.streaming;
  }

  /**
   * The timeline of a stored conversation whose last turn a reload cut: `messages`, then the turn as it was
   * saved (calls without a result not finished, calls that waited for approval waiting), its run ending
   * with `stop_reason: "interrupted"`.
   */
  show(messages: readonly ChatMessage[], turn: InterruptedTurn): TimelineState {
    const { content, reasoning, calls, results } = turn;
    const assistant: ChatMessage = { role: 'assistant', content: calls.length > 0 && content === '' ? null : content };
    if (calls.length > 0) assistant.tool_calls = calls;
    if (reasoning !== '') assistant.reasoning_content = reasoning;
    const answered = calls.flatMap((c): ChatMessage[] => (results[c.id] ? [{ role: 'tool', tool_call_id: c.id, content: results[c.id]!.content }] : []));
    let timeline = timelineFromMessages([...messages, assistant, ...answered], 'interrupted');
    for (const id of turn.awaiting) timeline = setApproval(timeline, id);
    this.shown = { messages, turn, endKey: timeline.items.at(-1)!.key };
    this.host.el.requestUpdate();
    return timeline;
  }

  /**
   * A stored conversation `id` was opened (shown as `shown`, its stored `messages`). When its last run was
   * in flight as the page went — it left a turn (the store's `loadTurn`), or its last message is the user's
   * or a tool result, with no answer after it (the page went before the first piece of the next answer was
   * saved) — an agent that can resume (an AI SDK back end that kept the stream) plays the rest of the run;
   * otherwise, or when there is nothing to resume, the saved turn (with no answer saved: an empty one) is
   * shown interrupted, so that Continue asks for the answer.
   */
  async opened(id: string, shown: TimelineState, messages: readonly ChatMessage[]): Promise<void> {
    const host = this.host;
    const { store } = host.el;
    this.shown = undefined;
    // another tab runs it still: that tab's run is followed, not continued here
    const [saved, elsewhere] = await Promise.all([store?.loadTurn?.(id).catch(() => undefined), lockHeld(conversationLock(store, id))]);
    const unanswered = messages.at(-1)?.role === 'user' || messages.at(-1)?.role === 'tool';
    const turn = saved ?? (unanswered ? { content: '', reasoning: '', calls: [], results: {}, awaiting: [] } : undefined);
    if (elsewhere || host.timeline !== shown || !turn) return;
    await host.settled();
    const agent = host.el.agent;
    let resumed = false;
    if (agent?.resume) {
      await host.run((signal) => ({
        async *[Symbol.asyncIterator]() {
          for await (const event of agent.resume!({ signal })) {
            resumed = true;
            yield event;
          }
        },
      }));
    }
    if (resumed || host.timeline !== shown) return;
    host.timeline = this.show(messages, turn);
    host.placeMessages();
  }

  /** True while the interrupted turn is the last thing shown and the agent can continue it. */
  private get open(): boolean {
    const shown = this.shown;
    return Boolean(shown && this.canContinue && this.host.timeline.items.at(-1)?.key === shown.endKey);
  }

  /**
   * Continues the interrupted turn (Continue): the timeline goes back to the stored messages and the
   * agent's continue run shows the turn again as it finishes it. `approve` answers the calls that need
   * approval (by default the element asks, on their cards).
   */
  continue(approve?: (call: ApprovalRequest) => Promise<boolean>): void {
    const shown = this.shown;
    const host = this.host;
    if (!shown || !this.open || !host.el.dispatchEvent(createChatEvent('pagent-send', { text: '', continue: true }))) return;
    this.shown = undefined;
    host.timeline = timelineFromMessages(shown.messages);
    void host.run(host.source('', approve ? { continue: true, approve } : { continue: true }));
  }

  /**
   * The user approved or denied `callId` on its card: when it is a call of the interrupted turn that waited,
   * the turn continues with that answer (and asks for the others). False when the call is not one.
   */
  answer(callId: string, approved: boolean): boolean {
    if (!this.open || !this.shown!.turn.awaiting.includes(callId)) return false;
    this.continue((call) => (call.tool_call_id === callId ? Promise.resolve(approved) : this.host.el.requestApproval(call)));
    return true;
  }

  /** The mark under the interrupted run, and Continue while it can be continued. */
  render(item: RunEndItem): TemplateResult | undefined {
    if (item.key !== this.shown?.endKey) return undefined;
    const { html, nothing } = this.host.lit;
    const s = interruptedStrings(this.host.locale(), this.host.strings());
    return html`<div part="interrupted">
      <p class="stopped">${s.interrupted}</p>
      ${this.open
        ? html`<button part="continue-button" class="secondary" type="button" aria-label=${s.continueLabel} @click=${() => this.continue()}>${s.continueAnswer}</button>`
        : nothing}
    </div>`;
  }
}
