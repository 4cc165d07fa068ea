// Binding tiers, with OpenClaw's observed answers (cases 8–24, 29, 30; the session-scope cases are in
// route-session-scopes.test.ts), with the legacy agent rules (unknown agents fall back to the default
// agent, never throw). Each case also checks explainAgentRoute agrees.
import { describeRouteTable, type RouteCase } from "../../test/helpers/route-table.js";
import type { RouteBinding, RouteConfig } from "./types.js";

type Case = RouteCase;

const bind = (agentId: string, match: RouteBinding["match"]): RouteBinding => ({ agentId, match });
const direct = (id: string | number | bigint) => ({ kind: "direct", id });
const channelPeer = (id: string | number | bigint) => ({ kind: "channel", id });

const peerA: RouteConfig = {
  bindings: [
    bind("a", { channel: "whatsapp", accountId: "biz", peer: direct("+1000") }),
    bind("b", { channel: "whatsapp", accountId: "biz" }),
  ],
};
const chanGuild: RouteConfig = {
  bindings: [
    bind("chan", { channel: "discord", accountId: "default", peer: channelPeer("c1") }),
    bind("guild", { channel: "discord", accountId: "default", guildId: "g1" }),
  ],
};
const guildAcct: RouteConfig = {
  bindings: [
    bind("guild", { channel: "discord", accountId: "default", guildId: "g1" }),
    bind("acct", { channel: "discord", accountId: "default" }),
  ],
};
const threadCfg: RouteConfig = {
  bindings: [bind("adecco", { channel: "discord", peer: channelPeer("parent-channel-123") })],
};
const threadBoth: RouteConfig = {
  bindings: [
    bind("parent-agent", { channel: "discord", peer: channelPeer("parent-channel-123") }),
    bind("thread-agent", { channel: "discord", peer: channelPeer("thread-456") }),
  ],
};
const parentGuild: RouteConfig = {
  bindings: [
    bind("guild-agent", { channel: "discord", guildId: "g1" }),
    bind("parent-agent", { channel: "discord", peer: channelPeer("parent-1") }),
  ],
};
const wildDirect: RouteConfig = {
  bindings: [bind("anyd", { channel: "telegram", peer: { kind: "direct", id: "*" } })],
};
const roles: RouteConfig = {
  bindings: [
    bind("admin", { channel: "discord", guildId: "g1", roles: ["r1"] }),
    bind("guild", { channel: "discord", guildId: "g1" }),
  ],
};
const olga: RouteConfig = {
  bindings: [
    bind("olga", { channel: "discord", peer: channelPeer("CHANNEL_A"), guildId: "GUILD_1" }),
    bind("main", { channel: "discord", guildId: "GUILD_1" }),
  ],
};
const olgaTeam: RouteConfig = {
  bindings: [
    bind("olga", { channel: "slack", peer: channelPeer("CHANNEL_A"), teamId: "T1" }),
    bind("main", { channel: "slack", teamId: "T1" }),
  ],
};
const twoAgents: RouteConfig = { agents: { list: [{ id: "a" }, { id: "b" }] } };
const rosterA = (agentId: string): RouteConfig => ({
  agents: { list: [{ id: "a" }] },
  bindings: [bind(agentId, { channel: "whatsapp" })],
});

const CASES: Case[] = [
  [
    "8 peer binding beats account binding; DM still collapses to main",
    { cfg: peerA, channel: "whatsapp", accountId: "biz", peer: direct("+1000") },
    { agentId: "a", accountId: "biz", matchedBy: "binding.peer", sessionKey: "agent:a:main" },
  ],
  [
    "9 peer binding beats guild binding",
    { cfg: chanGuild, channel: "discord", peer: channelPeer("c1"), guildId: "g1" },
    { agentId: "chan", matchedBy: "binding.peer", sessionKey: "agent:chan:discord:channel:c1" },
  ],
  [
    "10 guild binding beats account binding",
    { cfg: guildAcct, channel: "discord", peer: channelPeer("c1"), guildId: "g1" },
    { agentId: "guild", matchedBy: "binding.guild", sessionKey: "agent:guild:discord:channel:c1" },
  ],
  [
    "11a binding without accountId matches the default account",
    { cfg: { bindings: [bind("defaultAcct", { channel: "whatsapp" })] }, channel: "whatsapp" },
    { agentId: "defaultacct", matchedBy: "binding.account", sessionKey: "agent:defaultacct:main" },
  ],
  [
    "11b binding without accountId does not match another account",
    {
      cfg: { bindings: [bind("defaultAcct", { channel: "whatsapp" })] },
      channel: "whatsapp",
      accountId: "biz",
    },
    { agentId: "main", accountId: "biz", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "12 binding accountId is normalized (Bot Main → bot-main)",
    {
      cfg: { bindings: [bind("main", { channel: "telegram", accountId: "Bot Main" })] },
      channel: "telegram",
      accountId: "bot-main",
    },
    {
      agentId: "main",
      accountId: "bot-main",
      matchedBy: "binding.account",
      sessionKey: "agent:main:main",
    },
  ],
  [
    "13 accountId * matches any account at channel tier",
    {
      cfg: { bindings: [bind("any", { channel: "whatsapp", accountId: "*" })] },
      channel: "whatsapp",
      accountId: "biz",
    },
    { agentId: "any", matchedBy: "binding.channel", sessionKey: "agent:any:main" },
  ],
  [
    "14 default:true agent owns unmatched traffic",
    { cfg: { agents: { list: [{ id: "home", default: true }] } }, channel: "whatsapp" },
    { agentId: "home", matchedBy: "default", sessionKey: "agent:home:main" },
  ],
  [
    "15 thread inherits the parent peer binding; key uses the thread",
    {
      cfg: threadCfg,
      channel: "discord",
      peer: channelPeer("thread-456"),
      parentPeer: channelPeer("parent-channel-123"),
    },
    {
      agentId: "adecco",
      matchedBy: "binding.peer.parent",
      sessionKey: "agent:adecco:discord:channel:thread-456",
    },
  ],
  [
    "16 direct peer binding beats the parent binding",
    {
      cfg: threadBoth,
      channel: "discord",
      peer: channelPeer("thread-456"),
      parentPeer: channelPeer("parent-channel-123"),
    },
    {
      agentId: "thread-agent",
      matchedBy: "binding.peer",
      sessionKey: "agent:thread-agent:discord:channel:thread-456",
    },
  ],
  [
    "17a parent peer beats guild",
    {
      cfg: parentGuild,
      channel: "discord",
      peer: channelPeer("thread-1"),
      parentPeer: channelPeer("parent-1"),
      guildId: "g1",
    },
    {
      agentId: "parent-agent",
      matchedBy: "binding.peer.parent",
      sessionKey: "agent:parent-agent:discord:channel:thread-1",
    },
  ],
  [
    "17b parent peer with empty id is ignored",
    {
      cfg: threadCfg,
      channel: "discord",
      peer: channelPeer("thread-1"),
      parentPeer: channelPeer(""),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:discord:channel:thread-1" },
  ],
  [
    "17c parentPeer null is accepted",
    { cfg: threadCfg, channel: "discord", peer: channelPeer("thread-1"), parentPeer: null },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:discord:channel:thread-1" },
  ],
  [
    "18 legacy binding kind dm matches runtime direct",
    {
      cfg: { bindings: [bind("dm", { channel: "whatsapp", peer: { kind: "dm", id: "+1" } })] },
      channel: "whatsapp",
      peer: direct("+1"),
    },
    { agentId: "dm", matchedBy: "binding.peer", sessionKey: "agent:dm:main" },
  ],
  [
    "19 binding kind group matches inbound channel",
    {
      cfg: { bindings: [bind("g", { channel: "slack", peer: { kind: "group", id: "C1" } })] },
      channel: "slack",
      peer: channelPeer("C1"),
    },
    { agentId: "g", matchedBy: "binding.peer", sessionKey: "agent:g:slack:channel:c1" },
  ],
  [
    "20 peer ids compare exactly (c1 does not match C1)",
    {
      cfg: { bindings: [bind("g", { channel: "slack", peer: { kind: "channel", id: "c1" } })] },
      channel: "slack",
      peer: channelPeer("C1"),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:slack:channel:c1" },
  ],
  [
    "21a wildcard direct peer matches any DM",
    { cfg: wildDirect, channel: "telegram", peer: direct("42") },
    { agentId: "anyd", matchedBy: "binding.peer.wildcard", sessionKey: "agent:anyd:main" },
  ],
  [
    "21b wildcard direct peer does not match a group",
    { cfg: wildDirect, channel: "telegram", peer: { kind: "group", id: "-100" } },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:telegram:group:-100" },
  ],
  [
    "22 wildcard group peer matches inbound channel",
    {
      cfg: { bindings: [bind("anyg", { channel: "slack", peer: { kind: "group", id: "*" } })] },
      channel: "slack",
      peer: channelPeer("C9"),
    },
    {
      agentId: "anyg",
      matchedBy: "binding.peer.wildcard",
      sessionKey: "agent:anyg:slack:channel:c9",
    },
  ],
  [
    "23a guild+roles wins when a member role matches",
    { cfg: roles, channel: "discord", guildId: "g1", memberRoleIds: ["r0", "r1"] },
    { agentId: "admin", matchedBy: "binding.guild+roles", sessionKey: "agent:admin:main" },
  ],
  [
    "23b guild binding when no role matches",
    { cfg: roles, channel: "discord", guildId: "g1", memberRoleIds: ["r0"] },
    { agentId: "guild", matchedBy: "binding.guild", sessionKey: "agent:guild:main" },
  ],
  [
    "23c roles binding skipped without member roles",
    { cfg: roles, channel: "discord", guildId: "g1" },
    { agentId: "guild", matchedBy: "binding.guild", sessionKey: "agent:guild:main" },
  ],
  [
    "24a peer+guild binding is not a guild-wide fallback",
    { cfg: olga, channel: "discord", peer: channelPeer("CHANNEL_B"), guildId: "GUILD_1" },
    {
      agentId: "main",
      matchedBy: "binding.guild",
      sessionKey: "agent:main:discord:channel:channel_b",
    },
  ],
  [
    "24b peer+team binding is not a team-wide fallback",
    { cfg: olgaTeam, channel: "slack", peer: channelPeer("CHANNEL_B"), teamId: "T1" },
    {
      agentId: "main",
      matchedBy: "binding.team",
      sessionKey: "agent:main:slack:channel:channel_b",
    },
  ],
  [
    "29a legacy: two agents, no default → the first one (no throw)",
    { cfg: twoAgents, channel: "whatsapp" },
    { agentId: "a", matchedBy: "default", sessionKey: "agent:a:main" },
  ],
  [
    "29b defaultAgentId B (normalized) owns unmatched traffic",
    { cfg: twoAgents, channel: "whatsapp", defaultAgentId: "B" },
    { agentId: "b", matchedBy: "default", sessionKey: "agent:b:main" },
  ],
  [
    "30a legacy: unknown binding agent zzz falls back to the default agent",
    { cfg: rosterA("zzz"), channel: "whatsapp" },
    { agentId: "a", matchedBy: "binding.account", sessionKey: "agent:a:main" },
  ],
  [
    "30b legacy: binding agent main not in roster [a] falls back to a",
    { cfg: rosterA("main"), channel: "whatsapp" },
    { agentId: "a", matchedBy: "binding.account", sessionKey: "agent:a:main" },
  ],
];

describeRouteTable("resolveAgentRoute: tier examples", CASES);
