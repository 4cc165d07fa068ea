// Tier order, config order, invalid bindings, id normalization and scope precedence, each case also
// checked against explainAgentRoute.
import { describeRouteTable, type RouteCase } from "../../test/helpers/route-table.js";
import type { RouteBinding, RouteConfig } from "./types.js";

type Case = RouteCase;

const wa = (agentId: string, match: Omit<NonNullable<RouteBinding["match"]>, "channel"> = {}) => ({
  agentId,
  match: { channel: "whatsapp", ...match },
});
const cfgOf = (...bindings: RouteBinding[]): RouteConfig => ({ bindings });
const dm = (id: string | number) => ({ kind: "direct", id });

const CASES: Case[] = [
  [
    "account-specific binding beats an earlier * binding (different tiers)",
    {
      cfg: cfgOf(wa("any", { accountId: "*" }), wa("biz", { accountId: "biz" })),
      channel: "whatsapp",
      accountId: "biz",
    },
    { agentId: "biz", matchedBy: "binding.account", sessionKey: "agent:biz:main" },
  ],
  [
    "same peer, * binding first: first in config order wins",
    {
      cfg: cfgOf(
        wa("x", { accountId: "*", peer: dm("+1") }),
        wa("y", { accountId: "biz", peer: dm("+1") }),
      ),
      channel: "whatsapp",
      accountId: "biz",
      peer: dm("+1"),
    },
    { agentId: "x", matchedBy: "binding.peer", sessionKey: "agent:x:main" },
  ],
  [
    "same peer, account binding first: first in config order wins",
    {
      cfg: cfgOf(
        wa("y", { accountId: "biz", peer: dm("+1") }),
        wa("x", { accountId: "*", peer: dm("+1") }),
      ),
      channel: "whatsapp",
      accountId: "biz",
      peer: dm("+1"),
    },
    { agentId: "y", matchedBy: "binding.peer", sessionKey: "agent:y:main" },
  ],
  [
    "two channel-wide bindings: the first wins",
    { cfg: cfgOf(wa("one"), wa("two")), channel: "whatsapp" },
    { agentId: "one", matchedBy: "binding.account", sessionKey: "agent:one:main" },
  ],
  [
    "type acp bindings are not route bindings",
    { cfg: cfgOf({ ...wa("acp"), type: "acp" }), channel: "whatsapp" },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "type route bindings route",
    { cfg: cfgOf({ ...wa("r"), type: "route" }), channel: "whatsapp" },
    { agentId: "r", matchedBy: "binding.account", sessionKey: "agent:r:main" },
  ],
  [
    "binding with an unknown peer kind is dropped, not widened to the channel",
    {
      cfg: cfgOf(wa("bad", { peer: { kind: "thread", id: "x" } })),
      channel: "whatsapp",
      peer: dm("x"),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "binding with an empty peer id is dropped",
    {
      cfg: cfgOf(wa("bad", { peer: { kind: "direct", id: "  " } })),
      channel: "whatsapp",
      peer: dm("x"),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "binding without channel is dropped",
    {
      cfg: cfgOf({ agentId: "x", match: { accountId: "*" } }, { agentId: "y" }),
      channel: "whatsapp",
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "inbound peer kind thread matches no peer binding and keys with its kind",
    {
      cfg: cfgOf(wa("p", { peer: { kind: "group", id: "T1" } })),
      channel: "whatsapp",
      peer: { kind: "Thread", id: "T1" },
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:whatsapp:thread:t1" },
  ],
  [
    "binding peer kind and channel are case-insensitive",
    {
      cfg: {
        bindings: [
          { agentId: "c", match: { channel: " Slack ", peer: { kind: "Channel", id: "C1" } } },
        ],
      },
      channel: "SLACK",
      peer: { kind: "group", id: "C1" },
    },
    {
      agentId: "c",
      channel: "slack",
      matchedBy: "binding.peer",
      sessionKey: "agent:c:slack:group:c1",
    },
  ],
  [
    "numeric binding peer id matches a string inbound id",
    {
      cfg: {
        bindings: [
          { agentId: "n", match: { channel: "telegram", peer: { kind: "direct", id: 12345 } } },
        ],
      },
      channel: "telegram",
      peer: dm("12345"),
    },
    { agentId: "n", matchedBy: "binding.peer", sessionKey: "agent:n:main" },
  ],
  [
    "numeric guildId and bigint inbound guild compare as strings",
    {
      cfg: { bindings: [{ agentId: "g", match: { channel: "discord", guildId: 123 } }] },
      channel: "discord",
      guildId: 123n,
    },
    { agentId: "g", matchedBy: "binding.guild", sessionKey: "agent:g:main" },
  ],
  [
    "guild ids compare exactly",
    {
      cfg: { bindings: [{ agentId: "g", match: { channel: "discord", guildId: "G1" } }] },
      channel: "discord",
      guildId: "g1",
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "roles without guild constrain an account binding (match)",
    {
      cfg: { bindings: [{ agentId: "r", match: { channel: "discord", roles: ["r1"] } }] },
      channel: "discord",
      memberRoleIds: [" r1 "],
    },
    { agentId: "r", matchedBy: "binding.account", sessionKey: "agent:r:main" },
  ],
  [
    "roles without guild constrain an account binding (no match)",
    {
      cfg: { bindings: [{ agentId: "r", match: { channel: "discord", roles: ["r1"] } }] },
      channel: "discord",
      memberRoleIds: ["r2"],
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "empty roles list is no constraint",
    {
      cfg: {
        bindings: [{ agentId: "g", match: { channel: "discord", guildId: "g1", roles: [] } }],
      },
      channel: "discord",
      guildId: "g1",
    },
    { agentId: "g", matchedBy: "binding.guild", sessionKey: "agent:g:main" },
  ],
  [
    "numeric member role ids are stringified",
    {
      cfg: {
        bindings: [{ agentId: "a", match: { channel: "discord", guildId: "g", roles: ["7"] } }],
      },
      channel: "discord",
      guildId: "g",
      memberRoleIds: [7],
    },
    { agentId: "a", matchedBy: "binding.guild+roles", sessionKey: "agent:a:main" },
  ],
  [
    "peer binding requires its guild too",
    {
      cfg: {
        bindings: [
          {
            agentId: "p",
            match: { channel: "discord", peer: { kind: "channel", id: "c" }, guildId: "g1" },
          },
        ],
      },
      channel: "discord",
      peer: { kind: "channel", id: "c" },
      guildId: "g2",
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:discord:channel:c" },
  ],
  [
    "parent tier checks the binding's other constraints against the message",
    {
      cfg: {
        bindings: [
          {
            agentId: "p",
            match: { channel: "discord", peer: { kind: "channel", id: "parent" }, guildId: "g1" },
          },
        ],
      },
      channel: "discord",
      peer: { kind: "channel", id: "thread" },
      parentPeer: { kind: "channel", id: "parent" },
      guildId: "g1",
    },
    {
      agentId: "p",
      matchedBy: "binding.peer.parent",
      sessionKey: "agent:p:discord:channel:thread",
    },
  ],
  [
    "wildcard + team binding needs the team",
    {
      cfg: {
        bindings: [
          {
            agentId: "w",
            match: { channel: "slack", teamId: "T1", peer: { kind: "channel", id: "*" } },
          },
        ],
      },
      channel: "slack",
      teamId: "T2",
      peer: { kind: "channel", id: "C" },
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:slack:channel:c" },
  ],
  [
    "agents.entries is an alias of agents.list",
    { cfg: { agents: { entries: { ops: {}, dev: { default: true } } } }, channel: "whatsapp" },
    { agentId: "dev", matchedBy: "default", sessionKey: "agent:dev:main" },
  ],
  [
    "binding agent ids are normalized against the roster",
    {
      cfg: { agents: { list: [{ id: "work" }, { id: "my-agent" }] }, bindings: [wa("My Agent!")] },
      channel: "whatsapp",
    },
    { agentId: "my-agent", matchedBy: "binding.account", sessionKey: "agent:my-agent:main" },
  ],
  [
    "binding without agentId goes to the default agent",
    {
      cfg: {
        agents: { list: [{ id: "a" }, { id: "b", default: true }] },
        bindings: [{ match: { channel: "whatsapp" } }],
      },
      channel: "whatsapp",
    },
    { agentId: "b", matchedBy: "binding.account", sessionKey: "agent:b:main" },
  ],
  [
    "with no roster a binding's agent id is used as is",
    { cfg: cfgOf(wa("Ghost")), channel: "whatsapp" },
    { agentId: "ghost", matchedBy: "binding.account", sessionKey: "agent:ghost:main" },
  ],
  [
    "unknown defaultAgentId falls back to the config default",
    {
      cfg: { agents: { list: [{ id: "a" }, { id: "b" }] } },
      channel: "whatsapp",
      defaultAgentId: "zzz",
    },
    { agentId: "a", matchedBy: "default", sessionKey: "agent:a:main" },
  ],
  [
    "defaultAgentId does not override an unknown binding agent's fallback",
    {
      cfg: { agents: { list: [{ id: "a" }, { id: "b" }] }, bindings: [wa("zzz")] },
      channel: "whatsapp",
      defaultAgentId: "b",
    },
    { agentId: "a", matchedBy: "binding.account", sessionKey: "agent:a:main" },
  ],
  [
    "accountId __proto__ normalizes to default",
    { cfg: cfgOf(wa("d")), channel: "whatsapp", accountId: "__proto__" },
    {
      agentId: "d",
      accountId: "default",
      matchedBy: "binding.account",
      sessionKey: "agent:d:main",
    },
  ],
];

describeRouteTable("resolveAgentRoute: tiers, normalization and scopes", CASES);
