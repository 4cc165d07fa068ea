// System events: short lines queued for a session (a `/hooks/wake` text, a `/hooks/agent` summary)
// that its next heartbeat turn reads, as OpenClaw's system events: prepended to the prompt as
// `System: <text>` lines and drained. In memory (a restart drops what was not read yet), bounded per
// session (the oldest go first), one queue per gateway.

/** Lines kept per session before the oldest is dropped (OpenClaw keeps 20). */
export const MAX_SYSTEM_EVENTS = 20;

/** One queued line. */
export interface SystemEvent {
  text: string;
  ts: number;
}

/** The queue. */
export interface SystemEventQueue {
  /** Adds a line for a session; an exact repeat of the last one is not added twice. */
  enqueue(sessionKey: string, event: SystemEvent): void;
  /** Whether a session has lines waiting. */
  has(sessionKey: string): boolean;
  /** Takes a session's lines (oldest first), leaving none. */
  drain(sessionKey: string): SystemEvent[];
}

/** An empty queue. */
export function createSystemEventQueue(): SystemEventQueue {
  const queues = new Map<string, SystemEvent[]>();
  return {
    enqueue(sessionKey, event) {
      const text = event.text.trim();
      if (!text) return;
      const list = queues.get(sessionKey) ?? [];
      if (list.at(-1)?.text === text) return;
      list.push({ text, ts: event.ts });
      while (list.length > MAX_SYSTEM_EVENTS) list.shift();
      queues.set(sessionKey, list);
    },
    has: (sessionKey) => (queues.get(sessionKey)?.length ?? 0) > 0,
    drain(sessionKey) {
      const list = queues.get(sessionKey) ?? [];
      queues.delete(sessionKey);
      return list;
    },
  };
}

/** The prompt with the drained lines in front (`System: …`), or the prompt alone when none. */
export function withSystemEvents(prompt: string, events: readonly SystemEvent[]): string {
  if (events.length === 0) return prompt;
  return [...events.map((event) => `System: ${event.text}`), "", prompt].join("\n");
}
