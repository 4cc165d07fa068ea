// One run's stream as protocol events, in OpenClaw's shapes: `agent` events (lifecycle, assistant,
// tool, compaction streams) and `chat` events (delta, then final / aborted / error).
// Streamed text is coalesced per run (delta-window.ts): at most one `agent` assistant event
// (`{text, delta}`: the text so far and what it added since the previous one) and one `chat` delta
// (`{deltaText, message}`, droppable for a slow client) per window. Held agent text is flushed
// before the run's next other agent event, so the deltas always add up to the text; held chat
// text before a tool starts and before an error, and the final carries the whole message.
// A `text-deltas` connection (text-deltas.ts) gets no agent assistant events and its own chat
// variants: deltas with only `deltaText`, or `replace: true` + the whole text when it missed some;
// its final and aborted events also carry the held text as `deltaText`, so the deltas it got add
// up to the streamed text (the final's `message` is the reply as delivered: with the session's usage
// footer and, when `/reasoning` shows it, the reasoning as a thinking part; neither is streamed).

import { assertNever } from "../../lib/assert-never.js";
import type { RunEvent, RunResult } from "../../runtime/run/index.js";
import type { TrackedRun } from "../runs/run-tracker.js";
import { DeltaWindow } from "./delta-window.js";
import type { EmitEvent, EmitOptions } from "./event-fanout.js";

const OMIT = { kind: "omit" } as const;

/** What a run's events are sent with. */
export interface RunStreamDeps {
  emit: EmitEvent;
  now: () => number;
}

/** The event mapper of one run: `onEvent` per run event, `onResult` once at its end. */
export interface RunStreamEvents {
  onEvent(event: RunEvent): void;
  onResult(result: RunResult): void;
}

/** Creates the mapper of `run`'s stream to `agent` and `chat` events. */
export function createRunStreamEvents(run: TrackedRun, deps: RunStreamDeps): RunStreamEvents {
  let seq = 0;
  let chatSeq = 0;
  let text = "";
  const agentText = new DeltaWindow(deps.now);
  const chatText = new DeltaWindow(deps.now);
  const emitAgent = (stream: string, data: Record<string, unknown>, options?: EmitOptions) =>
    deps.emit(
      "agent",
      {
        runId: run.runId,
        stream,
        data,
        seq: ++seq,
        ts: deps.now(),
        sessionKey: run.sessionKey,
        agentId: run.agentId,
      },
      options,
    );
  // `textDeltas` builds the text-deltas variants from the event's head (absent: the same event).
  const chat = (
    state: string,
    extra: Record<string, unknown>,
    textDeltas: (head: Record<string, unknown>) => { inSync?: unknown; resync?: unknown },
  ) => {
    const head = {
      runId: run.runId,
      sessionKey: run.sessionKey,
      agentId: run.agentId,
      seq: ++chatSeq,
      state,
    };
    deps.emit(
      "chat",
      { ...head, ...extra },
      {
        droppable: state === "delta",
        textDeltas: {
          kind: "chat",
          runId: run.runId,
          seq: head.seq,
          end: state !== "delta",
          ...textDeltas(head),
        },
      },
    );
  };
  // A run's last chat event: a text-deltas connection also gets the text it has not got yet.
  const chatEnd = (state: string, extra: Record<string, unknown>, tail: string) =>
    chat(state, extra, (head) => ({
      ...(tail === "" ? {} : { inSync: { ...head, ...extra, deltaText: tail } }),
      ...(text === "" ? {} : { resync: { ...head, ...extra, deltaText: text, replace: true } }),
    }));
  const message = (body: string) => ({
    role: "assistant",
    content: [{ type: "text", text: body }],
    timestamp: deps.now(),
  });
  // The reply as shown: its session's usage footer appended, its reasoning (when shown) first as
  // a thinking part. Display only: the transcript keeps the model's own message.
  const finalMessage = (body: string, display: RunResult["display"]) => {
    const shown = display?.usageFooter ? `${body}\n\n${display.usageFooter}` : body;
    const base = message(shown);
    if (!display?.reasoning) return base;
    return {
      ...base,
      content: [{ type: "thinking", thinking: display.reasoning }, ...base.content],
    };
  };
  const sendAgentText = (delta: string | undefined) => {
    if (delta !== undefined) emitAgent("assistant", { text, delta }, { textDeltas: OMIT });
  };
  const sendChatText = (delta: string | undefined) => {
    if (delta === undefined) return;
    chat("delta", { deltaText: delta, message: message(text) }, (head) => ({
      inSync: { ...head, deltaText: delta },
      resync: { ...head, deltaText: text, replace: true },
    }));
  };
  // Every agent event but an assistant one first sends the held assistant text (order kept).
  const agent = (stream: string, data: Record<string, unknown>) => {
    sendAgentText(agentText.flush());
    emitAgent(stream, data);
  };
  return {
    onEvent(event: RunEvent): void {
      switch (event.type) {
        case "lifecycle":
          // The end and the error are reported from the result (onResult), once.
          if (event.phase === "start") {
            run.startedAt = deps.now();
            agent("lifecycle", { phase: "start", startedAt: run.startedAt });
          }
          return;
        case "model":
          agent("lifecycle", { phase: "model", provider: event.provider, model: event.model });
          return;
        case "assistant_delta":
          text += event.text;
          sendAgentText(agentText.push(event.text));
          sendChatText(chatText.push(event.text));
          return;
        case "tool_start": {
          const { toolCallId, toolName, args } = event;
          sendChatText(chatText.flush());
          agent("tool", { phase: "start", toolCallId, name: toolName, args });
          return;
        }
        case "tool_end": {
          const { toolCallId, toolName, isError } = event;
          agent("tool", { phase: "result", toolCallId, name: toolName, isError });
          return;
        }
        case "compaction":
          agent("compaction", { phase: "end", ok: event.ok, detail: event.detail });
          return;
        case "failover": {
          const { from, to, reason } = event;
          agent("lifecycle", { phase: "fallback", from, to, reason });
          return;
        }
        default:
          assertNever(event, "run event");
      }
    },
    onResult(result: RunResult): void {
      const endedAt = run.endedAt ?? deps.now();
      const aborted = result.status === "aborted";
      const startedAt = run.startedAt ?? run.acceptedAt;
      if (
        result.status === "error" ||
        (aborted && result.error && !run.controller.signal.aborted)
      ) {
        agent("lifecycle", { phase: "error", error: result.error ?? "error", startedAt, endedAt });
      }
      agent("lifecycle", {
        phase: "end",
        startedAt,
        endedAt,
        aborted,
        stopReason: result.status === "ok" ? "stop" : result.status,
      });
      const finalText = result.payloads.map((payload) => payload.text).join("\n\n") || text;
      if (result.status === "ok") {
        const extra = {
          message: finalMessage(finalText, result.display),
          usage: result.usage,
          stopReason: "stop",
        };
        chatEnd("final", extra, chatText.flush() ?? "");
      } else if (aborted && run.controller.signal.aborted) {
        chatEnd("aborted", { message: message(text) }, chatText.flush() ?? "");
      } else {
        sendChatText(chatText.flush());
        chatEnd("error", { errorMessage: result.error ?? result.status }, "");
      }
    },
  };
}
