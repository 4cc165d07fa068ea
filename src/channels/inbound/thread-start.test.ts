// Starting a thread's sessions: a new thread session gets the thread's history once (a second
// message of the thread arriving meanwhile waits and gets none), is forked from its parent under
// inheritParent, and a failing history read starts it without context. Which group context a
// thread reply uses follows historyScope. A real session store in a temp dir; the account runtime
// is a plain object.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../../lib/logger.js";
import { acquireStateDirLock, openSessionStore } from "../../sessions/index.js";
import type { ChannelAccountRuntime, ChannelInbound, ThreadSessionSettings } from "../types.js";
import type { RoutedInbound } from "./route.js";
import { createThreadStarts, groupHistoryKeyOf, withoutRepeats } from "./thread-start.js";

const PARENT = "agent:main:slack:channel:c1";
const THREAD = `${PARENT}:thread:100.1`;

function storeFor() {
  const stateDir = makeTempDir("pincer-thread-start-");
  const lock = acquireStateDirLock({ stateDir });
  closeWhenDone({ close: () => lock.release() });
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  return closeWhenDone(openSessionStore({ storePath, lock }));
}

function message(thread: Partial<ThreadSessionSettings> = {}, id = "100.5"): ChannelInbound {
  return {
    channel: "slack",
    accountId: "default",
    messageId: id,
    timestamp: 0,
    sender: { id: "UA" },
    peer: { kind: "channel", id: "C1" },
    parentPeer: { kind: "channel", id: "C1" },
    threadId: "100.1",
    text: "hi",
    mentions: [],
    mentionedSelf: true,
    media: [],
    threadSession: {
      historyScope: "thread",
      initialHistoryLimit: 20,
      inheritParent: false,
      ...thread,
    },
  };
}

const routed = { targets: [{ agentId: "main", sessionKey: THREAD }] } as RoutedInbound;

/** A runtime whose thread history resolves when the test says so. */
function gatedRuntime() {
  const queries: unknown[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const runtime = {
    async threadHistory(query: unknown) {
      queries.push(query);
      await gate;
      return [{ sender: "UB", body: "earlier", timestamp: 1 }];
    },
  } as unknown as ChannelAccountRuntime;
  return { runtime, queries, open };
}

describe("thread starts", () => {
  it("reads a new thread's history once; a message arriving meanwhile waits and gets none", async () => {
    const store = storeFor();
    const { runtime, queries, open } = gatedRuntime();
    const starts = createThreadStarts({
      stores: { forAgent: () => store },
      runtime: () => runtime,
      log: silentLogger,
    });
    const order: string[] = [];
    const first = starts.start({ message: message(), routed }).then((ctx) => {
      order.push("first");
      return ctx;
    });
    const second = starts.start({ message: message({}, "100.6"), routed }).then((ctx) => {
      order.push("second");
      return ctx;
    });
    expect(store.has(THREAD)).toBe(true);
    open();
    expect(await first).toEqual([{ sender: "UB", body: "earlier", timestamp: 1 }]);
    expect(await second).toEqual([]);
    expect(order).toEqual(["first", "second"]);
    expect(queries).toEqual([
      {
        peer: { kind: "channel", id: "C1" },
        threadId: "100.1",
        beforeMessageId: "100.5",
        limit: 20,
      },
    ]);
    expect(await starts.start({ message: message({}, "100.7"), routed })).toEqual([]);
    expect(queries).toHaveLength(1);
  });

  it("forks a new thread session from its parent under inheritParent; none without a parent", async () => {
    const store = storeFor();
    const starts = createThreadStarts({
      stores: { forAgent: () => store },
      runtime: () => undefined,
      log: silentLogger,
    });
    const settings = { inheritParent: true, initialHistoryLimit: 0 };
    await starts.start({ message: message(settings), routed });
    expect(store.readTranscript(THREAD)?.exists).toBe(false);
    store.delete(THREAD);
    store.getOrCreate(PARENT);
    store.openTranscript(PARENT, { cwd: "/w" }).appendMessage({ role: "user", content: "before" });
    await starts.start({ message: message(settings, "100.8"), routed });
    const copy = store.readTranscript(THREAD)!;
    expect(copy.header?.parentSession).toBe(store.transcriptPath(PARENT));
    expect(copy.entries).toHaveLength(1);
  });

  it("starts without context when the history cannot be read; nothing for unmarked messages", async () => {
    const store = storeFor();
    const failing = {
      threadHistory: () => Promise.reject(new Error("boom")),
    } as unknown as ChannelAccountRuntime;
    const starts = createThreadStarts({
      stores: { forAgent: () => store },
      runtime: () => failing,
      log: silentLogger,
    });
    expect(await starts.start({ message: message(), routed })).toEqual([]);
    const { threadSession: _none, ...plain } = message({}, "100.9");
    store.delete(THREAD);
    expect(await starts.start({ message: plain, routed })).toEqual([]);
    expect(store.has(THREAD)).toBe(false);
  });

  it("keys a thread reply's group context by its thread only under historyScope thread", () => {
    expect(groupHistoryKeyOf(message())).toBe("slack:default:channel:c1:thread:100.1");
    expect(groupHistoryKeyOf(message({ historyScope: "channel" }))).toBe(
      "slack:default:channel:c1",
    );
    const { threadSession: _none, ...plain } = message();
    expect(groupHistoryKeyOf(plain)).toBe("slack:default:channel:c1");
    expect(groupHistoryKeyOf({ ...plain, peer: { kind: "direct", id: "UA" } })).toBeUndefined();
  });

  it("leaves out context entries the thread history already has", () => {
    const thread = [{ sender: "UB", body: "ping", timestamp: 5 }];
    const pending = [
      { sender: "UB", body: "ping", timestamp: 5 },
      { sender: "UB", body: "pong", timestamp: 6 },
    ];
    expect(withoutRepeats(thread, pending).map((e) => e.body)).toEqual(["ping", "pong"]);
  });
});
