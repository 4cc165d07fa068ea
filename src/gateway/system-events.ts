// System events: short lines queued for a session (a cron job's `next-heartbeat` text, a
// `/hooks/wake` text, a `/hooks/agent` summary) that its next heartbeat turn reads, as OpenClaw's
// system events: put above the prompt as `System: <text>` lines and drained. In memory (a restart
// drops what was not read yet), bounded per session (the oldest go first), one queue per gateway,
// owned by its creator.

/** How many events a session keeps waiting (the oldest go first past this; OpenClaw keeps 20). */
export const MAX_QUEUED_SYSTEM_EVENTS = 20;

/** Per-session queue of system event texts. */
export class SystemEventQueue {
  private readonly bySession = new Map<string, string[]>();

  /** Queues one event for the session's next turn (blank text is ignored). */
  enqueue(sessionKey: string, text: string): void {
    const trimmed = text.trim();
    if (!trimmed) return;
    const queue = this.bySession.get(sessionKey) ?? [];
    queue.push(trimmed);
    if (queue.length > MAX_QUEUED_SYSTEM_EVENTS)
      queue.splice(0, queue.length - MAX_QUEUED_SYSTEM_EVENTS);
    this.bySession.set(sessionKey, queue);
  }

  /** Takes (and clears) the session's waiting events, oldest first. */
  drain(sessionKey: string): string[] {
    const queue = this.bySession.get(sessionKey) ?? [];
    this.bySession.delete(sessionKey);
    return queue;
  }

  /** The session's waiting events, left in place. */
  peek(sessionKey: string): readonly string[] {
    return this.bySession.get(sessionKey) ?? [];
  }
}

/** The prompt with the events above it, one `System: <text>` line each. */
export function withSystemEvents(events: readonly string[], prompt: string): string {
  if (events.length === 0) return prompt;
  return `${events.map((text) => `System: ${text}`).join("\n")}\n\n${prompt}`;
}
