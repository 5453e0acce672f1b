/**
 * The tool calls waiting for the user's approval: an `Agent`'s `needsApproval` tools and a remote back
 * end's approval requests alike. Asking shows Approve / Deny on the call's card; the user's choice (or a
 * denial when the run stops, another conversation opens or the element leaves the page) resolves the ask.
 */
import type { ApprovalRequest } from '../runs/agent-runs.js';
import { setApproval } from '../timeline/commands.js';
import type { TimelineState } from '../timeline/items.js';

/** Approvals asked of the user, by tool call id. */
export class Approvals {
  private readonly asked = new Map<string, (approved: boolean) => void>();

  /** `change` applies a timeline command to the timeline shown. */
  constructor(private readonly change: (command: (timeline: TimelineState) => TimelineState) => void) {}

  /** Shows Approve / Deny on the call's card; resolves with the user's choice. A second ask for the same call denies the first. */
  request(call: ApprovalRequest): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.asked.get(call.tool_call_id)?.(false);
      this.asked.set(call.tool_call_id, resolve);
      this.change((t) => setApproval(t, call.tool_call_id));
    });
  }

  /** True when a run of this page waits for the user's choice on `callId`. */
  has(callId: string): boolean {
    return this.asked.has(callId);
  }

  /** Records the user's choice on the card and gives it to the run that asked. */
  decide(callId: string, approved: boolean): void {
    const resolve = this.asked.get(callId);
    this.asked.delete(callId);
    this.change((t) => setApproval(t, callId, approved));
    resolve?.(approved);
  }

  /** Denies every call still waiting (the run stopped, or the element left the page). */
  denyAll(): void {
    const pending = [...this.asked.values()];
    this.asked.clear();
    for (const resolve of pending) resolve(false);
  }
}
