import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { resolveStatePaths } from "../config/paths.js";
import { acquireStateDirLock } from "./lock.js";
import { SessionStoreRegistry, type SessionsConfig } from "./registry.js";

function paths() {
  const home = makeTempDir("pincer-registry-");
  return resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: join(home, "state") } });
}

describe("SessionStoreRegistry", () => {
  it("opens one store per agent at <stateDir>/agents/<id>/sessions/sessions.json", async () => {
    const p = paths();
    const lock = acquireStateDirLock({ stateDir: p.stateDir });
    const cfg = { agents: { list: [{ id: "home" }, { id: "work" }] } };
    const registry = new SessionStoreRegistry({ cfg, paths: p, lock });
    const home = registry.forAgent("home");
    expect(home.storePath).toBe(join(p.stateDir, "agents", "home", "sessions", "sessions.json"));
    expect(registry.forAgent("Home")).toBe(home);
    expect(registry.forAgent("work")).not.toBe(home);
    home.getOrCreate("agent:home:main");
    await registry.flushAll();
    await registry.closeAll();
    lock.release();
  });

  it("shares one store object when session.store has no {agentId}", () => {
    const p = paths();
    const cfg = {
      agents: { list: [{ id: "home" }, { id: "work" }] },
      session: { store: join(p.stateDir, "all-sessions.json"), maintenance: { maxEntries: 10 } },
    };
    const registry = new SessionStoreRegistry({ cfg, paths: p });
    expect(registry.forAgent("home")).toBe(registry.forAgent("work"));
    expect(registry.forAgent("home").maintenance.maxEntries).toBe(10);
    expect(registry.forAgent("home").readOnly).toBe(true);
  });

  it("follows a reloaded config (a new config object) to the agent's new store", () => {
    const p = paths();
    let cfg: { session?: { store: string } } = {};
    const registry = new SessionStoreRegistry({
      get cfg() {
        return cfg;
      },
      paths: p,
    });
    const before = registry.forAgent("main");
    expect(registry.forAgent("main")).toBe(before);
    cfg = { session: { store: join(p.stateDir, "moved", "{agentId}.json") } };
    const after = registry.forAgent("main");
    expect(after).not.toBe(before);
    expect(after.storePath).toBe(join(p.stateDir, "moved", "main.json"));
  });

  it("keeps the backend of its start when a reloaded config names another cluster.store", async () => {
    const p = paths();
    let cfg: SessionsConfig = {};
    const registry = new SessionStoreRegistry({
      get cfg() {
        return cfg;
      },
      paths: p,
    });
    cfg = { cluster: { store: { kind: "postgres", url: "postgres://nowhere.invalid/db" } } };
    expect(registry.backendKind).toBe("files");
    await registry.ready(); // nothing to connect: the files backend stays
    expect(registry.forAgent("main").storePath).toBe(
      join(p.stateDir, "agents", "main", "sessions", "sessions.json"),
    );
  });
});
