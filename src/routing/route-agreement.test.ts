// The per-config cache sees config replacement, and the indexed resolver agrees with the scanning
// explainer on thousands of random configs and messages (a cross-check of the binding index).
import { describe, expect, it } from "vitest";
import { explainAgentRoute } from "./explain-route.js";
import { resolveAgentRoute } from "./resolve-route.js";
import type { ResolveAgentRouteInput, RouteBinding, RouteConfig } from "./types.js";

const wa = (agentId: string, match: Omit<NonNullable<RouteBinding["match"]>, "channel"> = {}) => ({
  agentId,
  match: { channel: "whatsapp", ...match },
});
const dm = (id: string) => ({ kind: "direct", id });

describe("resolveAgentRoute: per-config cache", () => {
  it("sees a replaced bindings array and an appended binding", () => {
    const cfg: { bindings: RouteBinding[] } = { bindings: [wa("one")] };
    expect(resolveAgentRoute({ cfg, channel: "whatsapp" }).agentId).toBe("one");
    cfg.bindings = [wa("two")];
    expect(resolveAgentRoute({ cfg, channel: "whatsapp" }).agentId).toBe("two");
    cfg.bindings.push(wa("three", { peer: dm("+1") }));
    expect(resolveAgentRoute({ cfg, channel: "whatsapp", peer: dm("+1") }).agentId).toBe("three");
  });

  it("sees a replaced agents roster", () => {
    const cfg: RouteConfig = { agents: { list: [{ id: "a" }] }, bindings: [wa("b")] };
    expect(resolveAgentRoute({ cfg, channel: "whatsapp" }).agentId).toBe("a");
    cfg.agents = { list: [{ id: "a" }, { id: "b" }] };
    expect(resolveAgentRoute({ cfg, channel: "whatsapp" }).agentId).toBe("b");
  });

  it("reads session settings on every call", () => {
    const cfg: RouteConfig = { session: {} };
    const input = { cfg, channel: "whatsapp", peer: dm("+1") };
    expect(resolveAgentRoute(input).sessionKey).toBe("agent:main:main");
    cfg.session = { dmScope: "per-peer" };
    expect(resolveAgentRoute(input).sessionKey).toBe("agent:main:direct:+1");
  });
});

// Deterministic pseudo-random generator (mulberry32) so failures reproduce.
function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("resolveAgentRoute agrees with the scanning explainer on random configs", () => {
  it("2,000 random messages over 40 random configs", () => {
    const next = rng(42);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    const maybe = <T>(value: T): T | undefined => (next() < 0.5 ? value : undefined);
    const kinds = ["direct", "dm", "group", "channel", "thread"];
    const ids = ["p1", "P1", "p2", "*", ""];
    for (let c = 0; c < 40; c++) {
      const bindings: RouteBinding[] = Array.from({ length: 1 + Math.floor(next() * 12) }, () => ({
        agentId: pick(["a", "b", "c", "zzz"]),
        match: {
          channel: pick(["whatsapp", "discord", ""]),
          accountId: maybe(pick(["*", "biz", "default", " Biz "])),
          peer: maybe({ kind: pick(kinds), id: pick(ids) }),
          guildId: maybe(pick(["g1", "g2"])),
          teamId: maybe(pick(["t1", "t2"])),
          roles: maybe(pick([["r1"], ["r2", "r3"], []])),
        },
        session: maybe({ dmScope: pick(["per-peer", "main"] as const) }),
      }));
      const cfg: RouteConfig = {
        agents: maybe({ list: [{ id: "a" }, { id: "b" }, { id: "c" }] }),
        bindings,
      };
      for (let m = 0; m < 50; m++) {
        const input: ResolveAgentRouteInput = {
          cfg,
          channel: pick(["whatsapp", "discord", "WhatsApp"]),
          accountId: maybe(pick(["biz", "other", "default"])),
          peer: maybe({ kind: pick(kinds), id: pick(ids) }),
          parentPeer: maybe({ kind: pick(kinds), id: pick(ids) }),
          guildId: maybe(pick(["g1", "g2"])),
          teamId: maybe(pick(["t1", "t2"])),
          memberRoleIds: maybe(pick([["r1"], ["r3"], []])),
        };
        expect(explainAgentRoute(input).route).toEqual(resolveAgentRoute(input));
      }
    }
  });
});
