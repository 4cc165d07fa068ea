// Resolution of a session's sandbox from config: merge rules with sources, scope keys, the
// workspace per access mode, binds (never the state dir), the config hash, and prune.
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { resolveEffectiveSandbox } from "./config.js";
import { pruneReason } from "./prune.js";
import { parseBind, resolveSandboxSpec } from "./spec.js";

const paths = {
  home: "/home/u",
  stateDir: "/home/u/.openclaw",
  configPath: "/home/u/.openclaw/c.json",
  workspaceBase: "/home/u/.openclaw",
};
const cfgOf = (config: object) => resolveConfig({ config: config as OpenClawConfig, paths });

const family = cfgOf({
  agents: {
    defaults: {
      sandbox: {
        mode: "non-main",
        workspaceRoot: "~/boxes",
        docker: { env: { A: "1", B: "1" }, binds: ["/srv/a:/a:ro"], network: "none" },
        prune: { idleHours: 2 },
      },
    },
    list: [
      { id: "main" },
      {
        id: "fam",
        workspace: "/home/u/fam",
        sandbox: {
          mode: "all",
          scope: "agent",
          workspaceAccess: "rw",
          docker: { env: { B: "2" }, binds: ["/srv/b:/b"] },
        },
      },
    ],
  },
});

describe("resolveEffectiveSandbox", () => {
  it("takes each key from the agent over the defaults, merges env and concatenates binds", () => {
    const eff = resolveEffectiveSandbox(family, "fam");
    expect(eff.scope).toEqual({ value: "agent", source: "agents.list[1].sandbox.scope" });
    expect(eff.workspaceRoot).toEqual({
      value: "~/boxes",
      source: "agents.defaults.sandbox.workspaceRoot",
    });
    expect(eff.docker.env.value).toEqual({ A: "1", B: "2" });
    expect(eff.docker.binds.value).toEqual(["/srv/a:/a:ro", "/srv/b:/b"]);
    expect(eff.backend).toEqual({ value: "docker", source: "default" });
    expect(eff.prune.idleHours).toEqual({
      value: 2,
      source: "agents.defaults.sandbox.prune.idleHours",
    });
    expect(eff.prune.maxAgeDays).toEqual({ value: 7, source: "default" });
  });

  it('ignores per-agent binds under scope "shared" and reads legacy perSession', () => {
    const shared = cfgOf({
      agents: {
        defaults: { sandbox: { scope: "shared", docker: { binds: ["/x:/x"] } } },
        list: [{ id: "a", sandbox: { docker: { binds: ["/y:/y"] } } }],
      },
    });
    expect(resolveEffectiveSandbox(shared, "a").docker.binds.value).toEqual(["/x:/x"]);
    const legacy = cfgOf({ agents: { list: [{ id: "a", sandbox: { perSession: false } }] } });
    expect(resolveEffectiveSandbox(legacy, "a").scope).toEqual({
      value: "agent",
      source: "agents.list[0].sandbox.perSession",
    });
  });
});

describe("resolveSandboxSpec", () => {
  it("mounts the agent workspace for rw, keyed per agent", () => {
    const spec = resolveSandboxSpec({
      cfg: family,
      agentId: "fam",
      sessionKey: "agent:fam:telegram:group:1",
    });
    if (!spec.ok) throw new Error(spec.error);
    expect(spec.value).toMatchObject({
      scopeKey: "agent:fam",
      workspaceDir: "/home/u/fam",
      workspaceRoot: "/home/u/boxes",
    });
    expect(spec.value.binds).toEqual([
      { hostPath: "/srv/a", containerPath: "/a", readOnly: true },
      { hostPath: "/srv/b", containerPath: "/b", readOnly: false },
    ]);
  });

  it('gives "none" a per-session dir under workspaceRoot; the hash ignores who asks but not the shape', () => {
    const a = resolveSandboxSpec({ cfg: family, agentId: "main", sessionKey: "agent:main:x" });
    const b = resolveSandboxSpec({ cfg: family, agentId: "main", sessionKey: "agent:main:y" });
    if (!a.ok || !b.ok) throw new Error("spec");
    expect(a.value.scopeKey).toBe("session:agent:main:x");
    expect(a.value.workspaceDir.startsWith("/home/u/boxes/session-agent-main-x-")).toBe(true);
    expect(a.value.workspaceDir).not.toBe(b.value.workspaceDir);
    expect(a.value.configHash).not.toBe(b.value.configHash);
    const again = resolveSandboxSpec({ cfg: family, agentId: "main", sessionKey: "x" });
    expect(again.ok && again.value.configHash).toBe(a.value.configHash);
  });

  it("refuses binds that are malformed or reach the state dir", () => {
    const ctx = { home: "/home/u", stateDir: "/home/u/.openclaw" };
    expect(parseBind("/src:/src:rw", ctx)).toMatchObject({ ok: true });
    expect(parseBind("/src", ctx)).toMatchObject({ ok: false });
    expect(parseBind("/src:/src:rx", ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining("ro or rw"),
    });
    expect(parseBind("/src:rel", ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining("absolute"),
    });
    for (const host of ["/", "/home/u", "~/.openclaw/agents"])
      expect(parseBind(`${host}:/h`, ctx)).toMatchObject({
        ok: false,
        error: expect.stringContaining("state dir"),
      });
  });
});

describe("pruneReason", () => {
  const instance = {
    backend: "bwrap" as const,
    id: "x",
    agentId: "main",
    scope: "agent" as const,
    scopeKey: "agent:main",
    configHash: "h",
    running: false,
  };
  const hour = 3_600_000;
  it("removes a sandbox idle past idleHours or older than maxAgeDays; 0 turns a rule off", () => {
    expect(
      pruneReason({
        cfg: family,
        instance: { ...instance, createdAt: 0, lastUsedAt: 0 },
        now: 3 * hour,
      }),
    ).toContain("unused for more than 2 h");
    expect(
      pruneReason({
        cfg: family,
        instance: { ...instance, createdAt: 0, lastUsedAt: 8 * 24 * hour },
        now: 8 * 24 * hour + 1,
      }),
    ).toContain("older than 7 days");
    expect(
      pruneReason({
        cfg: family,
        instance: { ...instance, createdAt: 0, lastUsedAt: hour },
        now: 2 * hour,
      }),
    ).toBeUndefined();
    const off = cfgOf({
      agents: { defaults: { sandbox: { prune: { idleHours: 0, maxAgeDays: 0 } } } },
    });
    expect(
      pruneReason({ cfg: off, instance: { ...instance, createdAt: 0, lastUsedAt: 0 }, now: 1e12 }),
    ).toBeUndefined();
  });
});
