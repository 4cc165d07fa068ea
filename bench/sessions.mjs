// Session store at 100,000 sessions in one agent: list latency, amortized metadata update (journal
// writes and the background sessions.json rewrites included), durable flush, snapshot and load times.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { acquireStateDirLock, openSessionStore } from "../dist/sessions/index.js";
import { fmt, medianMs } from "./measure.mjs";

const SESSIONS = 100_000;
const UPDATES = 100_000;
const DAY = 86_400_000;

function yieldToLoop() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A realistic key and first-message init: groups, topics and DMs over four channels. */
function sessionInit(i) {
  const channel = ["telegram", "whatsapp", "discord", "slack"][i % 4];
  const kind = i % 3 === 0 ? "direct" : "group";
  const peer = kind === "direct" ? `+1555${String(i).padStart(7, "0")}` : `-100${1_000_000 + i}`;
  return {
    key: `agent:main:${channel}:${kind}:${peer}`,
    init: {
      chatType: kind,
      origin: {
        label: `peer ${i}`,
        provider: channel,
        surface: channel,
        chatType: kind,
        from: `${channel}:${peer}`,
        to: `${channel}:${peer}`,
        accountId: "default",
      },
      deliveryContext: { channel, to: `${channel}:${peer}`, accountId: "default" },
      lastChannel: channel,
      lastTo: `${channel}:${peer}`,
      lastAccountId: "default",
      model: "claude-opus-4-5",
      modelProvider: "anthropic",
      contextTokens: 200_000,
    },
  };
}

async function seed(storePath, lock) {
  let at;
  const clock = { now: () => at ?? Date.now() };
  const store = openSessionStore({
    storePath,
    lock,
    clock,
    maintenance: { maxEntries: 1_000_000 },
  });
  const now = Date.now();
  const keys = [];
  for (let i = 0; i < SESSIONS; i++) {
    // 1% active in the last hour, the rest spread over 30 days, in no particular order.
    at = i % 100 === 0 ? now - ((i * 37) % 3_600_000) : now - ((i * 7_919_993) % (30 * DAY));
    const { key, init } = sessionInit(i);
    store.getOrCreate(key, init);
    keys.push(key);
    if (i % 1000 === 999) await yieldToLoop();
  }
  at = undefined;
  await store.close();
  return keys;
}

/** Bench rows for `npm run bench`. */
export async function sessionRows() {
  const stateDir = mkdtempSync(join(tmpdir(), "pincer-bench-sessions-"));
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  const lock = acquireStateDirLock({ stateDir, command: "bench" });
  try {
    const keys = await seed(storePath, lock);
    const loadStart = performance.now();
    const store = openSessionStore({ storePath, lock, maintenance: { maxEntries: 1_000_000 } });
    const loadMs = performance.now() - loadStart;
    const listAllMs = await medianMs(() => store.list());
    const listActiveMs = await medianMs(() => store.list({ activeMinutes: 60 }));
    const activeCount = store.list({ activeMinutes: 60 }).length;

    // A live gateway's pattern: updates from many turns, the event loop turning between them. The
    // total includes the journal appends and every sessions.json rewrite the store chose to make.
    const updateStart = performance.now();
    for (let i = 0; i < UPDATES; i++) {
      store.update(keys[(i * 7919) % SESSIONS], {
        inputTokens: i,
        outputTokens: i >> 1,
        totalTokens: 1000 + i,
      });
      if (i % 100 === 99) await yieldToLoop();
    }
    await store.flush();
    await store.snapshot();
    const updateUs = ((performance.now() - updateStart) * 1000) / UPDATES;
    const snapshots = store.stats().snapshotWrites;

    const listAfterMs = await medianMs(() => store.list({ limit: 50 }));
    let turn = 0;
    const flushMs = await medianMs(async () => {
      store.update(keys[turn++], { lastInteractionAt: Date.now() });
      await store.flush();
    }, 15);
    const snapshotStart = performance.now();
    await store.snapshot();
    const snapshotMs = performance.now() - snapshotStart;
    const snapshotMb = store.stats().lastSnapshotBytes / 1e6;
    await store.close();
    const n = fmt(SESSIONS);
    return [
      {
        name: `sessions list (all, newest first), ${n} sessions`,
        result: `${listAllMs.toFixed(1)} ms`,
        target: "< 50 ms",
      },
      {
        name: `sessions list --active 60 (${fmt(activeCount)} rows), ${n} sessions`,
        result: `${listActiveMs.toFixed(2)} ms`,
        target: "< 50 ms",
      },
      {
        name: `sessions list --limit 50 after ${fmt(UPDATES)} updates`,
        result: `${listAfterMs.toFixed(3)} ms`,
        target: "",
      },
      {
        name: `session metadata update, amortized (journal + ${snapshots} rewrites), ${n} sessions`,
        result: `${updateUs.toFixed(1)} µs`,
        target: "< 1 ms",
      },
      {
        name: `durable turn: update + flush (journal fsync), ${n} sessions`,
        result: `${flushMs.toFixed(2)} ms`,
        target: "",
      },
      {
        name: `sessions.json rewrite (${snapshotMb.toFixed(0)} MB), ${n} sessions`,
        result: `${fmt(snapshotMs)} ms`,
        target: "background",
      },
      {
        name: `open store (parse sessions.json), ${n} sessions`,
        result: `${fmt(loadMs)} ms`,
        target: "",
      },
    ];
  } finally {
    lock.release();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
