import { describe, expect, it } from "vitest";
import type { RunEvent, RunResult } from "../../runtime/run/index.js";
import type { TrackedRun } from "../runs/run-tracker.js";
import { DELTA_WINDOW_MS } from "./delta-window.js";
import {
  type EventFrame,
  EventSubscriptions,
  type FanoutTarget,
  fanOut,
  selectEventFrame,
  serializeEvent,
} from "./event-fanout.js";
import type { LazyEventFrame } from "./event-frame.js";
import { createRunStreamEvents } from "./run-stream-events.js";
import { MAX_CURSOR_RUNS, TextDeltaCursor, textDeltasFrames } from "./text-deltas.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read event payloads without a schema type.
type Loose = Record<string, any>;

/** A fan-out target that behaves as a connection does (selectEventFrame), recording what it got. */
class Recorder implements FanoutTarget {
  readonly connId: string;
  readonly frames: Loose[] = [];
  bytes = 0;
  slow = false;
  private seq = 0;
  private readonly cursor: TextDeltaCursor | undefined;

  constructor(name: string, textDeltas: boolean) {
    this.connId = name;
    this.cursor = textDeltas ? new TextDeltaCursor() : undefined;
  }

  sendEventFrame(frame: EventFrame): boolean {
    const chosen = selectEventFrame(frame, { cursor: this.cursor, slow: this.slow });
    if (!chosen) return false;
    const text = chosen.withSeq(++this.seq);
    this.bytes += Buffer.byteLength(text);
    this.frames.push(JSON.parse(text) as Loose);
    return true;
  }

  events(name: string): Loose[] {
    return this.frames.filter((f) => f.event === name).map((f) => f.payload as Loose);
  }

  /** The text a client rebuilds from its chat events: `replace ? deltaText : text + deltaText`. */
  rebuilt(): string {
    let text = "";
    for (const chat of this.events("chat")) {
      if (typeof chat.deltaText !== "string") continue;
      text = chat.replace === true ? chat.deltaText : text + chat.deltaText;
    }
    return text;
  }
}

/** One run streamed to `targets`; `step` ms pass per clock read; `before(i)` runs before delta i. */
function streamRun(params: {
  targets: Recorder[];
  pieces: string[];
  step: number;
  before?: (index: number) => void;
  status?: RunResult["status"];
  serialized?: EventFrame[];
}): void {
  let t = 1_000_000;
  const now = () => (t += params.step);
  const subscriptions = new EventSubscriptions();
  const run: TrackedRun = {
    runId: "r1",
    sessionKey: "agent:main:main",
    agentId: "main",
    acceptedAt: now(),
    controller: new AbortController(),
    result: new Promise(() => {}),
  };
  const stream = createRunStreamEvents(run, {
    now,
    emit: (event, payload, options) => {
      const frame = serializeEvent({
        event,
        payload,
        droppable: options?.droppable,
        textDeltas: options?.textDeltas,
      });
      params.serialized?.push(frame);
      fanOut({ frame, targets: params.targets, subscriptions, slowClientBytes: 0 });
    },
  });
  const text = params.pieces.join("");
  stream.onEvent({ type: "lifecycle", runId: "r1", phase: "start" } as RunEvent);
  params.pieces.forEach((piece, index) => {
    params.before?.(index);
    stream.onEvent({ type: "assistant_delta", runId: "r1", text: piece });
  });
  const status = params.status ?? "ok";
  if (status === "aborted") run.controller.abort();
  stream.onResult({
    runId: "r1",
    status,
    payloads: status === "ok" ? [{ text, media: [], voice: false }] : [],
    usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, total: 3 },
    durationMs: 5,
    failovers: [],
    ...(status === "error" ? { error: "boom" } : {}),
  } as RunResult);
}

const PIECES = Array.from({ length: 250 }, (_, i) => `${String(i).padStart(3, "0")}abcdefghijklm`);
const REPLY = PIECES.join(""); // 4,000 characters in 16-character deltas
// Each clock read is 1 ms: a window is crossed every few deltas.
const PACED = 1;

describe("text-deltas connections", () => {
  it("get deltaText-only chat deltas that rebuild the text, no agent assistant events, the whole final", () => {
    const td = new Recorder("td", true);
    streamRun({ targets: [td], pieces: PIECES, step: PACED });
    const chats = td.events("chat");
    const deltas = chats.filter((c) => c.state === "delta");
    expect(deltas.length).toBeGreaterThan(3);
    for (const delta of deltas) {
      expect(Object.keys(delta)).toEqual([
        "runId",
        "sessionKey",
        "agentId",
        "seq",
        "state",
        "deltaText",
      ]);
    }
    expect(td.rebuilt()).toBe(REPLY);
    const final = chats.at(-1) as Loose;
    expect(final.state).toBe("final");
    expect(final.message.content[0].text).toBe(REPLY);
    expect(final.replace).toBeUndefined();
    const agent = td.events("agent");
    expect(agent.filter((a) => a.stream === "assistant")).toHaveLength(0);
    expect(agent.map((a) => a.data.phase)).toEqual(["start", "end"]);
  });

  it("cost at most 3× the reply in event bytes where an OpenClaw-shape client pays far more", () => {
    for (const step of [0, PACED]) {
      const td = new Recorder("td", true);
      const compat = new Recorder("compat", false);
      streamRun({ targets: [td, compat], pieces: PIECES, step });
      expect(td.bytes).toBeLessThanOrEqual(3 * REPLY.length);
      expect(compat.bytes).toBeGreaterThan(3 * REPLY.length);
    }
  });

  it("rebuild the exact text after skipped deltas: the next one replaces", () => {
    const td = new Recorder("td", true);
    streamRun({
      targets: [td],
      pieces: PIECES,
      step: PACED,
      before: (i) => {
        td.slow = i >= 40 && i < 120;
      },
    });
    const deltas = td.events("chat").filter((c) => c.state === "delta");
    const replaced = deltas.filter((d) => d.replace === true);
    expect(replaced).toHaveLength(1);
    expect(REPLY.startsWith(replaced[0]?.deltaText)).toBe(true);
    expect(replaced[0]?.deltaText.length).toBeGreaterThan(120 * 16 - 1);
    expect(td.rebuilt()).toBe(REPLY);
  });

  it("rebuild the exact text when slow to the end, or when they connected mid-run", () => {
    const late = new Recorder("late", true);
    const slow = new Recorder("slow", true);
    const targets = [slow];
    streamRun({
      targets,
      pieces: PIECES,
      step: PACED,
      before: (i) => {
        if (i === 100) targets.push(late);
        slow.slow = i >= 200;
      },
    });
    expect(late.events("chat")[0]).toMatchObject({ state: "delta", replace: true });
    expect(late.rebuilt()).toBe(REPLY);
    expect(slow.events("chat").at(-1)).toMatchObject({ state: "final", replace: true });
    expect(slow.rebuilt()).toBe(REPLY);
  });

  it("get the held text with the final, the aborted event, and after an error", () => {
    for (const status of ["ok", "aborted", "error"] as const) {
      const td = new Recorder("td", true);
      streamRun({ targets: [td], pieces: PIECES, step: 0, status });
      // The held text goes out with the final / aborted event, as a delta before an error.
      const deltas = td.events("chat").filter((c) => c.state === "delta");
      expect(deltas).toHaveLength(status === "error" ? 2 : 1);
      expect(td.rebuilt()).toBe(REPLY);
      // Slow for every delta: the run's last chat event carries the whole text.
      const slow = new Recorder("slow", true);
      slow.slow = true;
      streamRun({ targets: [slow], pieces: PIECES, step: 0, status });
      expect(slow.events("chat").at(-1)).toMatchObject({ replace: true, deltaText: REPLY });
    }
  });
});

describe("OpenClaw-shape connections (no caps)", () => {
  it("get exactly today's agent and chat shapes, whoever else is connected", () => {
    const alone = new Recorder("alone", false);
    streamRun({ targets: [alone], pieces: PIECES, step: PACED });
    const beside = new Recorder("beside", false);
    streamRun({ targets: [new Recorder("td", true), beside], pieces: PIECES, step: PACED });
    expect(beside.frames).toEqual(alone.frames);
    const agentKeys = ["runId", "stream", "data", "seq", "ts", "sessionKey", "agentId"];
    const assistant = alone.events("agent").filter((a) => a.stream === "assistant");
    expect(assistant.length).toBeGreaterThan(3);
    for (const event of assistant) {
      expect(Object.keys(event)).toEqual(agentKeys);
      expect(Object.keys(event.data)).toEqual(["text", "delta"]);
    }
    expect(assistant.map((a) => a.data.delta).join("")).toBe(REPLY);
    expect(assistant.at(-1)?.data.text).toBe(REPLY);
    const chats = alone.events("chat");
    const head = ["runId", "sessionKey", "agentId", "seq", "state"];
    for (const delta of chats.filter((c) => c.state === "delta")) {
      expect(Object.keys(delta)).toEqual([...head, "deltaText", "message"]);
      expect(Object.keys(delta.message)).toEqual(["role", "content", "timestamp"]);
      expect(REPLY.startsWith(delta.message.content[0].text)).toBe(true);
    }
    const final = chats.at(-1) as Loose;
    expect(Object.keys(final)).toEqual([...head, "message", "usage", "stopReason"]);
    expect(final.message.content).toEqual([{ type: "text", text: REPLY }]);
    expect(chats.map((c) => c.seq)).toEqual(chats.map((_, i) => i + 1));
  });
});

describe("frame variants", () => {
  const serializedOf = (frames: EventFrame[]) => {
    const lazy = new Set<LazyEventFrame>();
    for (const frame of frames) {
      if (frame.textDeltas?.kind === "chat") {
        lazy.add(frame.textDeltas.inSync);
        lazy.add(frame.textDeltas.resync);
      }
    }
    return {
      compat: frames.filter((f) => f.compat.serialized).length,
      textDeltas: [...lazy].filter((f) => f.serialized).length,
      chatFrames: frames.filter((f) => f.event === "chat").length,
    };
  };

  it("are serialized only when some recipient needs them", () => {
    const compatOnly: EventFrame[] = [];
    streamRun({
      targets: [new Recorder("a", false), new Recorder("b", false)],
      pieces: PIECES,
      step: PACED,
      serialized: compatOnly,
    });
    expect(serializedOf(compatOnly).textDeltas).toBe(0);
    const textDeltasOnly: EventFrame[] = [];
    streamRun({
      targets: [new Recorder("a", true), new Recorder("b", true)],
      pieces: PIECES,
      step: PACED,
      serialized: textDeltasOnly,
    });
    const counts = serializedOf(textDeltasOnly);
    // Agent assistant events and chat deltas are never serialized in OpenClaw's shape.
    expect(counts.compat).toBe(2);
    expect(counts.textDeltas).toBe(counts.chatFrames);
  });

  it("serialize each variant once for all its recipients", () => {
    const frames = textDeltasFrames({
      event: "chat",
      spec: { kind: "chat", runId: "r", seq: 1, end: false, inSync: { a: 1 }, resync: { a: 2 } },
      compat: serializeEvent({ event: "chat", payload: { a: 0 } }).compat,
    });
    if (frames.kind !== "chat") throw new Error("expected chat frames");
    const first = frames.inSync.withSeq(1);
    expect(frames.inSync.withSeq(2)).toBe(first.replace('"seq":1', '"seq":2'));
    expect(JSON.parse(first)).toEqual({ type: "event", event: "chat", payload: { a: 1 }, seq: 1 });
    expect(frames.resync.serialized).toBe(false);
  });
});

describe("TextDeltaCursor", () => {
  it("remembers at most MAX_CURSOR_RUNS runs and forgets a run at its last chat event", () => {
    const cursor = new TextDeltaCursor();
    const compat = serializeEvent({ event: "chat", payload: {} }).compat;
    const frames = (runId: string, seq: number, end = false) =>
      textDeltasFrames({
        event: "chat",
        spec: { kind: "chat", runId, seq, end, inSync: { in: true }, resync: { in: false } },
        compat,
      });
    for (let i = 0; i < MAX_CURSOR_RUNS + 10; i++) cursor.pick(frames(`r${i}`, 1));
    expect(cursor.size).toBe(MAX_CURSOR_RUNS);
    const next = cursor.pick(frames("r0", 2));
    // r0 was forgotten: the safe answer (resync) is sent.
    expect(JSON.parse(next?.withSeq(1) ?? "{}").payload).toEqual({ in: false });
    expect(JSON.parse(cursor.pick(frames("r0", 3, true))?.withSeq(1) ?? "{}").payload).toEqual({
      in: true,
    });
    expect(cursor.size).toBe(MAX_CURSOR_RUNS - 1);
    expect(cursor.pick({ kind: "omit" })).toBeUndefined();
  });
});

it("a delta window is what the paced clock crosses (sanity of the test setup)", () => {
  expect(DELTA_WINDOW_MS).toBeGreaterThan(PACED * 4);
});
