// System events waiting for a session's next turn: a main-session cron job with wakeMode
// "next-heartbeat" queues its text here, and the next heartbeat of that session takes the queue
// and puts the events above its prompt as `System: <text>` lines (OpenClaw's shape). In memory
// only, bounded per session; one queue per gateway, owned by its creator.

/** How many events a session keeps waiting (the oldest go first past this). */
export const MAX_QUEUED_SYSTEM_EVENTS = 20;

/** Per-session queue of system event texts. */
export class SystemEventQueue {
  private readonly bySession = new Map<string, string[]>();

  /** Queues one event for the session's next turn. */
  enqueue(sessionKey: string, text: string): void {
    const queue = this.bySession.get(sessionKey) ?? [];
    queue.push(text);
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
