// What a run tells the world, as one discriminated union: the CLI, the transcript, the gateway and
// the channels all consume the same events. Plus a tiny push → async-iterable channel.
import type { FailoverEvent } from "../models/index.js";

/** One event of a run; `runId` ties it to its run. */
export type RunEvent =
  | { type: "lifecycle"; runId: string; phase: "start"; agentId: string; sessionKey: string }
  | { type: "lifecycle"; runId: string; phase: "end"; status: RunStatus }
  | { type: "lifecycle"; runId: string; phase: "error"; error: string }
  | { type: "model"; runId: string; provider: string; model: string; credential: string }
  | { type: "assistant_delta"; runId: string; text: string }
  | { type: "tool_start"; runId: string; toolCallId: string; toolName: string; args: unknown }
  | {
      type: "tool_end";
      runId: string;
      toolCallId: string;
      toolName: string;
      isError: boolean;
      /** The tool's result (`{content, details}`): verbose channels show its text. */
      result?: unknown;
    }
  | { type: "compaction"; runId: string; ok: boolean; detail: string }
  | (FailoverEvent & { runId: string });

/** How a run ended. */
export type RunStatus = "ok" | "error" | "aborted" | "timeout";

/** A push/close queue read with `for await`; events pushed before a reader arrives are kept. */
export interface EventChannel<T> extends AsyncIterable<T> {
  push(item: T): void;
  close(): void;
}

/** Creates an unbounded single-reader event channel. */
export function createEventChannel<T>(): EventChannel<T> {
  const buffer: T[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(item) {
      if (closed) return;
      buffer.push(item);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (buffer.length > 0) {
          yield buffer.shift() as T;
        } else if (closed) {
          return;
        } else {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      }
    },
  };
}
