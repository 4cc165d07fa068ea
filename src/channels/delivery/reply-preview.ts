// Streamed reply previews (`streaming: "partial"` on a channel whose messages can be edited): while
// a run writes its reply, one preview message in the conversation shows the text so far, edited at
// most once per interval (one edit in flight; the newest text wins). The reply itself then goes
// through the delivery queue as usual, its first text part as an edit of the preview
// (`OutboundMessage.editMessageId`), so the conversation ends with the exact reply once. The
// preview is outside the queue: after a crash mid-run it stays as it was and the reply comes as a
// new message. Failures are logged and stop the preview; they never fail the turn.
import type { RunEvent } from "../../runtime/run/index.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  ChannelCapabilities,
  Logger,
  OutboundMessage,
  OutboundTarget,
} from "../types.js";

/** Shortest gap between two preview edits (as OpenClaw's draft streaming: about one per second). */
export const PREVIEW_INTERVAL_MS = 1000;
/** Characters a reply needs before its preview is posted (a one-word answer is just sent). */
export const PREVIEW_MIN_CHARS = 30;

/** Timers (injectable for tests). */
export interface PreviewTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: PreviewTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Whether an account streams reply previews: `streaming` true / "partial" (OpenClaw's "block" and
 *  "progress" too) on a platform whose messages can be edited; off by default. */
export function previewStreamingEnabled(
  config: ChannelAccountConfig,
  capabilities: ChannelCapabilities | undefined,
): boolean {
  if (capabilities?.edits !== true) return false;
  const setting = config.streaming;
  const mode =
    typeof setting === "object" && setting !== null
      ? (setting as { mode?: unknown }).mode
      : setting;
  return mode === true || mode === "partial" || mode === "block" || mode === "progress";
}

/** Inputs of {@link createReplyPreview}. */
export interface ReplyPreviewParams {
  runtime: Pick<ChannelAccountRuntime, "send">;
  /** The conversation (never quoting: the reply part quotes the message). */
  target: OutboundTarget;
  maxTextLength: number;
  log: Logger;
  intervalMs?: number;
  minChars?: number;
  timers?: PreviewTimers;
}

/** One turn's preview: feed it the run's events; `finish` ends it and says which message to edit. */
export interface ReplyPreview {
  onEvent(event: RunEvent): void;
  /** Stops editing, waits for the edit in flight; the preview's message id once one was posted. */
  finish(): Promise<string | undefined>;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Starts a turn's preview (posts nothing until the reply has `minChars` characters). */
export function createReplyPreview(params: ReplyPreviewParams): ReplyPreview {
  const timers = params.timers ?? systemTimers;
  const interval = params.intervalMs ?? PREVIEW_INTERVAL_MS;
  const minChars = params.minChars ?? PREVIEW_MIN_CHARS;
  let text = "";
  let shown = "";
  let freshMessage = false;
  let messageId: string | undefined;
  let inFlight: Promise<void> | undefined;
  let timer: unknown;
  let lastAt = Number.NEGATIVE_INFINITY;
  let stopped = false;

  const push = async (snapshot: string): Promise<void> => {
    const message: OutboundMessage = {
      target: params.target,
      text: snapshot,
      ...(messageId ? { editMessageId: messageId } : {}),
    };
    const result = await params.runtime.send(message);
    if (!result.ok) {
      stopped = true;
      params.log.warn(
        { error: result.failure.message, code: result.failure.code, edit: messageId !== undefined },
        "reply preview stopped: send failed",
      );
      return;
    }
    messageId ??= result.receipt.messageId;
    shown = snapshot;
  };

  const flush = (): void => {
    timer = undefined;
    if (stopped || inFlight) return;
    const snapshot = clip(text, params.maxTextLength);
    if (snapshot === shown || snapshot.trim().length < (messageId ? 1 : minChars)) return;
    const wait = lastAt + interval - timers.now();
    if (wait > 0) {
      timer ??= timers.setTimeout(flush, wait);
      return;
    }
    lastAt = timers.now();
    inFlight = push(snapshot)
      .catch((err: unknown) => {
        stopped = true;
        params.log.warn({ error: String(err) }, "reply preview stopped: send threw");
      })
      .finally(() => {
        inFlight = undefined;
        if (!stopped && clip(text, params.maxTextLength) !== shown) flush();
      });
  };

  return {
    onEvent(event) {
      if (stopped) return;
      if (event.type === "tool_start") {
        // The next assistant message replaces this one's text (the reply is the last message).
        freshMessage = true;
        return;
      }
      if (event.type !== "assistant_delta") return;
      text = freshMessage ? event.text : text + event.text;
      freshMessage = false;
      flush();
    },
    async finish() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await inFlight;
      return messageId;
    },
  };
}

/** The reply's messages with the first text-only part turned into an edit of the preview. */
export function editPreviewWithReply(
  messages: readonly OutboundMessage[],
  previewMessageId: string | undefined,
): OutboundMessage[] {
  if (previewMessageId === undefined) return [...messages];
  const index = messages.findIndex((m) => m.text && !(m.media && m.media.length > 0));
  if (index < 0) return [...messages];
  return messages.map((m, i) => (i === index ? { ...m, editMessageId: previewMessageId } : m));
}
