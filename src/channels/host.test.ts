import { afterEach, describe, expect, it } from "vitest";
import { createMemoryChannel } from "../../test/helpers/memory-channel.js";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { resolveStatePaths } from "../config/index.js";
import { silentLogger } from "../lib/logger.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { createLaneScheduler } from "../runtime/lanes/index.js";
import { acquireStateDirLock, SessionStoreRegistry, type StateDirLock } from "../sessions/index.js";
import { createChannelHost } from "./host.js";
import { createChannelRegistry } from "./registry.js";

const locks: StateDirLock[] = [];
afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
});

function hostFor(memory: ReturnType<typeof createMemoryChannel>, initial: OpenClawConfig) {
  let cfg = initial;
  const stateDir = makeTempDir("pincer-host-");
  const lock = acquireStateDirLock({ stateDir });
  locks.push(lock);
  const paths = resolveStatePaths({ env: { HOME: stateDir, OPENCLAW_STATE_DIR: stateDir } });
  const host = createChannelHost({
    registry: createChannelRegistry({ loaders: { memory: async () => memory.adapter } }),
    config: () => cfg,
    stateDir,
    env: {},
    log: silentLogger,
    stores: new SessionStoreRegistry({ cfg: {}, paths, lock }),
    lanes: createLaneScheduler({ maxConcurrent: 1 }),
    runtimeDeps: () => Promise.reject(new Error("no runs in this test")),
    startRun: () => Promise.reject(new Error("no runs in this test")),
    emit: () => {},
  });
  return { host, setConfig: (next: OpenClawConfig) => (cfg = next) };
}

const channels = (memory: Record<string, unknown>) => ({ channels: { memory } }) as OpenClawConfig;

describe("channel host", () => {
  it("starts enabled accounts, reports validation errors in status instead of throwing", async () => {
    const memory = createMemoryChannel({ requireToken: true });
    const { host } = hostFor(
      memory,
      channels({ accounts: { a: { botToken: "t" }, b: {}, c: { botToken: "t", enabled: false } } }),
    );
    await host.start();
    expect(memory.running()).toEqual(["a"]);
    const status = await host.status({ probe: true });
    const byId = Object.fromEntries(status.channelAccounts.memory!.map((a) => [a.accountId, a]));
    expect(byId.a).toMatchObject({
      running: true,
      connected: true,
      configured: true,
      probe: { ok: true },
    });
    expect(byId.b).toMatchObject({
      running: false,
      configured: false,
      lastError: "botToken is missing",
    });
    expect(byId.c).toMatchObject({ running: false, enabled: false });
    expect(status.channels.memory).toEqual({ configured: true, running: true, accounts: 3 });
    await host.stop();
    expect(memory.running()).toEqual([]);
  });

  it("restarts only the accounts whose config changed on reload", async () => {
    const memory = createMemoryChannel();
    const { host, setConfig } = hostFor(
      memory,
      channels({ accounts: { a: { x: 1 }, b: { x: 1 } } }),
    );
    await host.start();
    setConfig(channels({ accounts: { a: { x: 1 }, b: { x: 2 }, c: {} } }));
    await host.applyConfig();
    expect(memory.starts).toEqual({ a: 1, b: 2, c: 1 });
    setConfig(channels({ accounts: { a: { x: 1 } } }));
    await host.applyConfig();
    expect(memory.running()).toEqual(["a"]);
    expect(memory.starts.a).toBe(1);
    await host.stop();
  });

  it("send refuses without a running account and names the channel rule", async () => {
    const memory = createMemoryChannel();
    const { host } = hostFor(memory, channels({}));
    await host.start();
    expect(await host.send({ to: "1", message: "hi", channel: "nope" })).toMatchObject({
      ok: false,
      kind: "unavailable",
    });
    expect(await host.send({ to: "1", message: "" })).toMatchObject({ ok: false, kind: "invalid" });
    expect(await host.send({ to: "group:g", message: "hi" })).toMatchObject({
      ok: true,
      channel: "memory",
      accountId: "default",
    });
    expect(memory.sent[0]!.message.target.peer).toEqual({ kind: "group", id: "g" });
    await host.stop();
  });
});
