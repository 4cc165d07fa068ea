// Text shaping for held messages: the collect-mode join and the one-line summary of dropped messages.
import type { ImageContent } from "@mariozechner/pi-ai";

/** One inbound user message waiting for, or steering, a run; `P` is what its submitter attaches. */
export interface InboundMessage<P = unknown> {
  text: string;
  /** Caller's id, echoed in drop reports. */
  id?: string;
  /** Reply route (channel/account/peer/thread); messages of different routes are never coalesced. */
  route?: string;
  images?: ImageContent[];
  /** Filled in on submit when absent (ms epoch). */
  receivedAt?: number;
  /** The submitter's own data (a channel message's reply route), handed back with the message in
   *  turns, steering and drop reports; absent on the overflow summary line the queue writes. */
  payload?: P;
  /** Set on the overflow summary line the queue puts first among steering messages. */
  overflowSummary?: boolean;
  /** A message steered into a run on a worker: its steer id, recorded on its transcript entry. */
  steerId?: string;
}

/** Header of a collect-mode prompt that joins several held messages. */
export const COLLECT_HEADER = "[Queued messages while agent was busy]";

const EXCERPT_CHARS = 60;

/** Joins held messages into one prompt: a single message stays as is, several get numbered sections. */
export function joinCollected(messages: readonly InboundMessage[]): string {
  if (messages.length === 1) return messages[0].text;
  const parts = messages.map((message, index) => `---\nQueued #${index + 1}\n${message.text}`);
  return [COLLECT_HEADER, ...parts].join("\n\n");
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

/** Excerpts kept for an overflow summary; later drops are only counted. */
export const SUMMARY_SAMPLES = 5;

/** One line naming how many messages the cap dropped and how the first few began. */
export function summarizeDropped(
  samples: readonly InboundMessage[],
  total = samples.length,
): string {
  const noun = total === 1 ? "message" : "messages";
  const shown = samples.slice(0, SUMMARY_SAMPLES);
  const quotes = shown.map((message) => `"${excerpt(message.text)}"`).join("; ");
  const more = total > shown.length ? `; and ${total - shown.length} more` : "";
  return `[Queue overflow: ${total} earlier ${noun} dropped: ${quotes}${more}]`;
}
