// explainAgentRoute: the exact words `pincer agents route` prints for "why did this message reach that
// agent", and the config notes (ignored bindings, unknown agents, typos, shadowed bindings).
import { describe, expect, it } from "vitest";
import { classifyBindingTier } from "./binding-compile.js";
import { explainAgentRoute, ROUTE_TIERS } from "./explain-route.js";
import type { RouteConfig } from "./types.js";

const homeWork: RouteConfig = {
  agents: { list: [{ id: "home", default: true }, { id: "work" }] },
  bindings: [
    { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
    { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
    {
      agentId: "work",
      match: { channel: "whatsapp", accountId: "personal", peer: { kind: "group", id: "G1" } },
    },
  ],
};

describe("explainAgentRoute", () => {
  it("walks every tier down to default when nothing matches", () => {
    const explained = explainAgentRoute({
      cfg: homeWork,
      channel: "whatsapp",
      peer: { kind: "direct", id: "+1" },
    });
    expect(explained.route.agentId).toBe("home");
    expect(explained.matchedBindingIndex).toBeUndefined();
    expect(explained.notes).toEqual([]);
    expect(explained.tiers).toEqual([
      {
        tier: "binding.peer",
        outcome: "no-match",
        reason: "no binding in this tier matches",
        candidates: [
          {
            bindingIndex: 2,
            agentId: "work",
            rejected: "binding #2 (agent work) requires accountId personal, message has default",
          },
        ],
      },
      {
        tier: "binding.peer.parent",
        outcome: "not-applicable",
        reason: "no parent peer",
        candidates: [
          { bindingIndex: 2, agentId: "work", rejected: "not considered: no parent peer" },
        ],
      },
      {
        tier: "binding.peer.wildcard",
        outcome: "no-match",
        reason: "no bindings in this tier",
        candidates: [],
      },
      {
        tier: "binding.guild+roles",
        outcome: "not-applicable",
        reason: "no guildId",
        candidates: [],
      },
      { tier: "binding.guild", outcome: "not-applicable", reason: "no guildId", candidates: [] },
      { tier: "binding.team", outcome: "not-applicable", reason: "no teamId", candidates: [] },
      {
        tier: "binding.account",
        outcome: "no-match",
        reason: "no binding in this tier matches",
        candidates: [
          {
            bindingIndex: 0,
            agentId: "home",
            rejected: "binding #0 (agent home) requires accountId personal, message has default",
          },
          {
            bindingIndex: 1,
            agentId: "work",
            rejected: "binding #1 (agent work) requires accountId biz, message has default",
          },
        ],
      },
      {
        tier: "binding.channel",
        outcome: "no-match",
        reason: "no bindings in this tier",
        candidates: [],
      },
      {
        tier: "default",
        outcome: "matched",
        reason: "no binding matched; default agent home",
        candidates: [],
      },
    ]);
  });

  it("stops at the matching tier and notes less specific bindings that would also match", () => {
    const explained = explainAgentRoute({
      cfg: homeWork,
      channel: "whatsapp",
      accountId: "personal",
      peer: { kind: "group", id: "G1" },
    });
    expect(explained.route).toMatchObject({ agentId: "work", matchedBy: "binding.peer" });
    expect(explained.matchedBindingIndex).toBe(2);
    expect(explained.tiers).toEqual([
      {
        tier: "binding.peer",
        outcome: "matched",
        reason: "binding #2 (agent work) matches",
        candidates: [{ bindingIndex: 2, agentId: "work" }],
      },
    ]);
    expect(explained.notes).toEqual([
      "binding #0 (agent home) would also match in tier binding.account, but binding.peer is more specific",
    ]);
  });

  it("says where a peer+guild binding went and why it did not match", () => {
    const cfg: RouteConfig = {
      bindings: [
        {
          agentId: "olga",
          match: { channel: "discord", peer: { kind: "channel", id: "A" }, guildId: "G1" },
        },
        { agentId: "main", match: { channel: "discord", guildId: "G1" } },
      ],
    };
    const explained = explainAgentRoute({
      cfg,
      channel: "discord",
      peer: { kind: "channel", id: "B" },
      guildId: "G1",
    });
    expect(explained.matchedBindingIndex).toBe(1);
    expect(explained.tiers.map((tier) => [tier.tier, tier.outcome, tier.reason])).toEqual([
      ["binding.peer", "no-match", "no binding in this tier matches"],
      ["binding.peer.parent", "not-applicable", "no parent peer"],
      ["binding.peer.wildcard", "no-match", "no bindings in this tier"],
      ["binding.guild+roles", "not-applicable", "no member roles"],
      ["binding.guild", "matched", "binding #1 (agent main) matches"],
    ]);
    expect(explained.tiers[0].candidates).toEqual([
      {
        bindingIndex: 0,
        agentId: "olga",
        rejected: "binding #0 (agent olga) requires peer channel:A, message has channel:B",
      },
    ]);
    expect(explained.tiers[4].candidates).toEqual([
      {
        bindingIndex: 0,
        agentId: "olga",
        rejected: "binding #0 (agent olga) is in tier binding.peer",
      },
      { bindingIndex: 1, agentId: "main" },
    ]);
  });

  it("explains guild, team, role and kind mismatches", () => {
    const cfg: RouteConfig = {
      bindings: [
        { agentId: "admin", match: { channel: "discord", guildId: "g1", roles: ["r1", "r2"] } },
        { agentId: "g1", match: { channel: "discord", guildId: "g1" } },
        { agentId: "dms", match: { channel: "discord", peer: { kind: "direct", id: "*" } } },
        { agentId: "team", match: { channel: "discord", teamId: "t1" } },
        { agentId: "rolesonly", match: { channel: "discord", roles: ["r9"] } },
      ],
    };
    const explained = explainAgentRoute({
      cfg,
      channel: "discord",
      peer: { kind: "channel", id: "c" },
      guildId: "g2",
      teamId: "t2",
      memberRoleIds: ["r0"],
    });
    const rejected = explained.tiers.flatMap((tier) => tier.candidates.map((c) => c.rejected));
    expect(rejected).toEqual([
      "binding #2 (agent dms) requires a direct peer, message has channel:c",
      "binding #0 (agent admin) requires guildId g1, message has g2",
      "binding #4 (agent rolesonly) is in tier binding.account",
      "binding #0 (agent admin) is in tier binding.guild+roles",
      "binding #1 (agent g1) requires guildId g1, message has g2",
      "binding #3 (agent team) requires teamId t1, message has t2",
      "binding #4 (agent rolesonly) requires one of roles r9, message has r0",
    ]);
    expect(explained.route.matchedBy).toBe("default");
  });

  it("names the later binding that lost on config order and the fallback of unknown agents", () => {
    const cfg: RouteConfig = {
      agents: { list: [{ id: "a" }, { id: "b" }] },
      bindings: [
        { agentId: "zzz", match: { channel: "telegram", accountId: "*" } },
        { agentId: "b", match: { channel: "telegram", accountId: "*" } },
      ],
    };
    const explained = explainAgentRoute({ cfg, channel: "telegram", accountId: "alerts" });
    const last = explained.tiers.at(-1);
    expect(last).toEqual({
      tier: "binding.channel",
      outcome: "matched",
      reason: "binding #0 (agent zzz) matches, but agent zzz is not configured, so agent a gets it",
      candidates: [
        { bindingIndex: 0, agentId: "zzz" },
        {
          bindingIndex: 1,
          agentId: "b",
          rejected: "binding #1 (agent b) also matches, but #0 comes first in config order",
        },
      ],
    });
    expect(explained.route.agentId).toBe("a");
    expect(explained.notes).toEqual([
      "binding #0 (agent zzz): agent zzz is not configured, so its traffic goes to the default agent a",
    ]);
  });

  it("notes ignored bindings, an unknown defaultAgentId and a channel without bindings", () => {
    const cfg: RouteConfig = {
      agents: { list: [{ id: "a" }] },
      bindings: [
        { agentId: "a", match: { channel: "whatsapp" } },
        { agentId: "a", type: "acp", match: { channel: "whatsapp" } },
        { agentId: "a", match: { channel: "" } },
        { agentId: "a", match: { channel: "whatsapp", peer: { kind: "thread", id: "1" } } },
        { agentId: "a", match: { channel: "whatsapp", peer: { kind: "group", id: "" } } },
        { agentId: "a" },
      ],
    };
    const explained = explainAgentRoute({ cfg, channel: "whatsap", defaultAgentId: "Nobody" });
    expect(explained.route).toMatchObject({ agentId: "a", matchedBy: "default" });
    expect(explained.notes).toEqual([
      'binding #1 is ignored: it has type "acp", not a route binding',
      "binding #2 is ignored: it has no match.channel",
      'binding #3 is ignored: it has peer kind "thread", not direct, dm, group or channel',
      "binding #4 is ignored: it has an empty peer id",
      "binding #5 is ignored: it has no match object",
      'defaultAgentId "Nobody" is not a configured agent; the default agent a is used',
      'no binding is for channel "whatsap" (bindings exist for: whatsapp)',
    ]);
  });

  it("explains parent peers, unknown peer kinds and defaultAgentId", () => {
    const cfg: RouteConfig = {
      agents: { list: [{ id: "a" }, { id: "b" }] },
      bindings: [
        { agentId: "b", match: { channel: "discord", peer: { kind: "channel", id: "p" } } },
      ],
    };
    const emptyParent = explainAgentRoute({
      cfg,
      channel: "discord",
      peer: { kind: "thread", id: "t" },
      parentPeer: { kind: "channel", id: " " },
      defaultAgentId: "B",
    });
    expect(emptyParent.tiers.slice(0, 3).map((tier) => tier.reason)).toEqual([
      'peer kind "thread" is not direct, group or channel, so no peer binding can match',
      "parent peer has an empty id",
      'peer kind "thread" is not direct, group or channel, so no peer binding can match',
    ]);
    expect(emptyParent.tiers.at(-1)?.reason).toBe(
      "no binding matched; defaultAgentId gives agent b",
    );
    const parent = explainAgentRoute({
      cfg,
      channel: "discord",
      peer: { kind: "channel", id: "t" },
      parentPeer: { kind: "channel", id: "q" },
    });
    expect(parent.tiers[1].candidates).toEqual([
      {
        bindingIndex: 0,
        agentId: "b",
        rejected: "binding #0 (agent b) requires peer channel:p, parent peer is channel:q",
      },
    ]);
  });

  it("explains an empty config", () => {
    const explained = explainAgentRoute({ cfg: {}, channel: "webchat" });
    expect(explained.tiers.at(-1)?.reason).toBe(
      "no binding matched; no agents configured, so agent main",
    );
    expect(explained.notes).toEqual([]);
  });
});

describe("ROUTE_TIERS and classifyBindingTier", () => {
  it("lists the tiers most specific first", () => {
    expect(ROUTE_TIERS).toEqual([
      "binding.peer",
      "binding.peer.parent",
      "binding.peer.wildcard",
      "binding.guild+roles",
      "binding.guild",
      "binding.team",
      "binding.account",
      "binding.channel",
      "default",
    ]);
  });

  it.each([
    [
      { agentId: "a", match: { channel: "x", peer: { kind: "dm", id: "1" }, guildId: "g" } },
      "binding.peer",
    ],
    [
      { agentId: "a", match: { channel: "x", peer: { kind: "group", id: "*" } } },
      "binding.peer.wildcard",
    ],
    [{ agentId: "a", match: { channel: "x", guildId: 1, roles: ["r"] } }, "binding.guild+roles"],
    [{ agentId: "a", match: { channel: "x", guildId: "g", roles: [] } }, "binding.guild"],
    [{ agentId: "a", match: { channel: "x", teamId: "t", accountId: "*" } }, "binding.team"],
    [{ agentId: "a", match: { channel: "x", roles: ["r"] } }, "binding.account"],
    [{ agentId: "a", match: { channel: "x", accountId: "*" } }, "binding.channel"],
    [{ agentId: "a", match: { channel: "x", peer: { kind: "thread", id: "1" } } }, undefined],
    [{ agentId: "a", type: "acp", match: { channel: "x" } }, undefined],
  ])("%j → %s", (binding, expected) => {
    expect(classifyBindingTier(binding)).toBe(expected);
  });
});
