import { describe, expect, it } from "vitest";
import { silentLogger } from "../../lib/logger.js";
import type { OutboundMessage, SendResult } from "../types.js";
import {
  createReplyPreview,
  editPreviewWithReply,
  type PreviewTimers,
  previewStreamingEnabled,
} from "./reply-preview.js";

/** Timers driven by the test: `advance` runs what falls due. */
function manualTimers() {
  let now = 0;
  const due: Array<{ at: number; fn: () => void; live: boolean }> = [];
  const timers: PreviewTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const entry = { at: now + ms, fn, live: true };
      due.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      (handle as { live: boolean }).live = false;
    },
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const entry of due.filter((e) => e.live && e.at <= now)) {
      entry.live = false;
      entry.fn();
    }
    await settle();
  };
  return { timers, advance };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const target = { accountId: "a", peer: { kind: "channel" as const, id: "C1" } };
const delta = (text: string) => ({ type: "assistant_delta" as const, runId: "r", text });

function recordingRuntime(fail?: (n: number) => SendResult | undefined) {
  const sends: OutboundMessage[] = [];
  return {
    sends,
    runtime: {
      send: async (message: OutboundMessage): Promise<SendResult> => {
        sends.push(message);
        const failure = fail?.(sends.length);
        if (failure) return failure;
        return { ok: true, receipt: { messageId: message.editMessageId ?? "p1" } };
      },
    },
  };
}

describe("streaming settings", () => {
  it("streams only where messages can be edited and the account asks for it", () => {
    const editable = { edits: true } as never;
    expect(previewStreamingEnabled({ streaming: "partial" }, editable)).toBe(true);
    expect(previewStreamingEnabled({ streaming: true }, editable)).toBe(true);
    expect(previewStreamingEnabled({ streaming: { mode: "partial" } }, editable)).toBe(true);
    expect(previewStreamingEnabled({ streaming: "off" }, editable)).toBe(false);
    expect(previewStreamingEnabled({}, editable)).toBe(false);
    expect(previewStreamingEnabled({ streaming: "partial" }, { edits: false } as never)).toBe(
      false,
    );
    expect(previewStreamingEnabled({ streaming: "partial" }, undefined)).toBe(false);
  });
});

describe("the reply preview", () => {
  const log = silentLogger;

  it("posts once the text is long enough, then edits at most once per interval with the newest text", async () => {
    const { timers, advance } = manualTimers();
    const { runtime, sends } = recordingRuntime();
    const preview = createReplyPreview({
      runtime,
      target,
      maxTextLength: 100,
      log,
      timers,
      minChars: 10,
    });
    preview.onEvent(delta("Hello"));
    await settle();
    expect(sends).toEqual([]);
    preview.onEvent(delta(" world, this"));
    await settle();
    expect(sends).toEqual([{ target, text: "Hello world, this" }]);
    preview.onEvent(delta(" is"));
    preview.onEvent(delta(" streaming"));
    await settle();
    expect(sends).toHaveLength(1);
    await advance(1000);
    expect(sends[1]).toEqual({
      target,
      text: "Hello world, this is streaming",
      editMessageId: "p1",
    });
    preview.onEvent(delta("."));
    await settle();
    expect(await preview.finish()).toBe("p1");
    await advance(5000);
    expect(sends).toHaveLength(2);
  });

  it("a tool call starts the next assistant message's text afresh; long text is clipped", async () => {
    const { timers, advance } = manualTimers();
    const { runtime, sends } = recordingRuntime();
    const preview = createReplyPreview({
      runtime,
      target,
      maxTextLength: 12,
      log,
      timers,
      minChars: 1,
    });
    preview.onEvent(delta("Let me look"));
    await settle();
    preview.onEvent({
      type: "tool_start",
      runId: "r",
      toolCallId: "t",
      toolName: "exec",
      args: {},
    });
    preview.onEvent(delta("Found it: a very long answer"));
    await advance(1000);
    expect(sends.map((s) => s.text)).toEqual(["Let me look", "Found it: a…"]);
    await preview.finish();
  });

  it("a failed send stops the preview without failing anything", async () => {
    const { timers, advance } = manualTimers();
    const { runtime, sends } = recordingRuntime((n) =>
      n === 2 ? { ok: false, failure: { message: "edit refused", retryable: false } } : undefined,
    );
    const preview = createReplyPreview({
      runtime,
      target,
      maxTextLength: 50,
      log,
      timers,
      minChars: 1,
    });
    preview.onEvent(delta("one"));
    await settle();
    preview.onEvent(delta(" two"));
    await advance(1000);
    preview.onEvent(delta(" three"));
    await advance(1000);
    expect(sends).toHaveLength(2);
    expect(await preview.finish()).toBe("p1");
  });

  it("nothing is posted for a short reply; finish then names no message", async () => {
    const { timers } = manualTimers();
    const { runtime, sends } = recordingRuntime();
    const preview = createReplyPreview({ runtime, target, maxTextLength: 50, log, timers });
    preview.onEvent(delta("Sure."));
    expect(await preview.finish()).toBeUndefined();
    expect(sends).toEqual([]);
  });
});

describe("the reply's first text part edits the preview", () => {
  it("marks the first text-only part; media parts and other parts are left alone", () => {
    const media = { target, media: [{ url: "https://x/y.png" }] };
    const parts: OutboundMessage[] = [media, { target, text: "a" }, { target, text: "b" }];
    expect(editPreviewWithReply(parts, "p1")).toEqual([
      media,
      { target, text: "a", editMessageId: "p1" },
      { target, text: "b" },
    ]);
    expect(editPreviewWithReply(parts, undefined)).toEqual(parts);
    expect(editPreviewWithReply([media], "p1")).toEqual([media]);
  });
});
