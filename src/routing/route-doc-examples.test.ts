// Every routing example of OpenClaw's multi-agent and channel routing docs (home/work, chat/opus,
// two Telegram bots, a family group, support), run through resolveAgentRoute, each also checked against explainAgentRoute.
import { describeRouteTable, type RouteCase } from "../../test/helpers/route-table.js";
import type { RouteConfig } from "./types.js";

type Case = RouteCase;

const WA_GROUP = "120363999999999999@g.us";
const FAMILY_GROUP = "120363000000000001@g.us";

const homeWork: RouteConfig = {
  agents: {
    list: [
      { id: "home", default: true, workspace: "~/.openclaw/workspace-home" },
      { id: "work", workspace: "~/.openclaw/workspace-work" },
    ],
  },
  bindings: [
    { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
    { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
    {
      agentId: "work",
      match: { channel: "whatsapp", accountId: "personal", peer: { kind: "group", id: WA_GROUP } },
    },
  ],
};
const chatOpusAgents = { list: [{ id: "chat" }, { id: "opus" }] };
const byChannel: RouteConfig = {
  agents: chatOpusAgents,
  bindings: [
    { agentId: "chat", match: { channel: "whatsapp" } },
    { agentId: "opus", match: { channel: "telegram" } },
  ],
};
const oneDmToOpus: RouteConfig = {
  agents: chatOpusAgents,
  bindings: [
    { agentId: "opus", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551234567" } } },
    { agentId: "chat", match: { channel: "whatsapp" } },
  ],
};
const channelWideFirst: RouteConfig = {
  agents: chatOpusAgents,
  bindings: [oneDmToOpus.bindings![1], oneDmToOpus.bindings![0]],
};
const twoBots: RouteConfig = {
  agents: { list: [{ id: "main" }, { id: "alerts" }] },
  bindings: [
    { agentId: "main", match: { channel: "telegram", accountId: "default" } },
    { agentId: "alerts", match: { channel: "telegram", accountId: "alerts" } },
  ],
};
const family: RouteConfig = {
  agents: { list: [{ id: "family", name: "Family" }] },
  bindings: [
    {
      agentId: "family",
      match: { channel: "whatsapp", peer: { kind: "group", id: FAMILY_GROUP } },
    },
  ],
};
const alexMia: RouteConfig = {
  agents: { list: [{ id: "alex" }, { id: "mia" }] },
  bindings: [
    { agentId: "alex", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551230001" } } },
    { agentId: "mia", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551230002" } } },
  ],
};
const support: RouteConfig = {
  agents: { list: [{ id: "support", name: "Support" }] },
  bindings: [
    { match: { channel: "slack", teamId: "T123" }, agentId: "support" },
    { match: { channel: "telegram", peer: { kind: "group", id: "-100123" } }, agentId: "support" },
  ],
};
const mainWork: RouteConfig = {
  agents: { list: [{ id: "main", default: true }, { id: "work" }] },
  bindings: [
    { agentId: "main", match: { channel: "whatsapp", accountId: "personal" } },
    { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
  ],
};

const dm = (id: string) => ({ kind: "direct", id });
const group = (id: string) => ({ kind: "group", id });

const CASES: Case[] = [
  [
    "home/work: personal account DM → home",
    { cfg: homeWork, channel: "whatsapp", accountId: "personal", peer: dm("+15550001111") },
    { agentId: "home", matchedBy: "binding.account", sessionKey: "agent:home:main" },
  ],
  [
    "home/work: biz account DM → work",
    { cfg: homeWork, channel: "whatsapp", accountId: "biz", peer: dm("+15550001111") },
    { agentId: "work", matchedBy: "binding.account", sessionKey: "agent:work:main" },
  ],
  [
    "home/work: per-peer override sends the personal group to work",
    { cfg: homeWork, channel: "whatsapp", accountId: "personal", peer: group(WA_GROUP) },
    {
      agentId: "work",
      matchedBy: "binding.peer",
      sessionKey: `agent:work:whatsapp:group:${WA_GROUP}`,
    },
  ],
  [
    "home/work: the override is personal-only; the same group on biz goes by account",
    { cfg: homeWork, channel: "whatsapp", accountId: "biz", peer: group(WA_GROUP) },
    {
      agentId: "work",
      matchedBy: "binding.account",
      sessionKey: `agent:work:whatsapp:group:${WA_GROUP}`,
    },
  ],
  [
    "home/work: other groups on personal stay home",
    { cfg: homeWork, channel: "whatsapp", accountId: "personal", peer: group("1203@g.us") },
    {
      agentId: "home",
      matchedBy: "binding.account",
      sessionKey: "agent:home:whatsapp:group:1203@g.us",
    },
  ],
  [
    "home/work: an unbound account falls to the default agent home",
    { cfg: homeWork, channel: "whatsapp", accountId: "other", peer: dm("+1") },
    { agentId: "home", accountId: "other", matchedBy: "default", sessionKey: "agent:home:main" },
  ],
  [
    "home/work: a different channel falls to home",
    { cfg: homeWork, channel: "telegram", peer: dm("42") },
    { agentId: "home", matchedBy: "default", sessionKey: "agent:home:main" },
  ],
  [
    "chat/opus by channel: WhatsApp → chat",
    { cfg: byChannel, channel: "whatsapp", peer: dm("+1") },
    { agentId: "chat", matchedBy: "binding.account", sessionKey: "agent:chat:main" },
  ],
  [
    "chat/opus by channel: Telegram → opus",
    { cfg: byChannel, channel: "telegram", peer: group("-100") },
    { agentId: "opus", matchedBy: "binding.account", sessionKey: "agent:opus:telegram:group:-100" },
  ],
  [
    "chat/opus by channel: binding without accountId misses a named account",
    { cfg: byChannel, channel: "telegram", accountId: "work", peer: dm("1") },
    { agentId: "chat", matchedBy: "default", sessionKey: "agent:chat:main" },
  ],
  [
    "chat/opus by channel: unbound channel → first agent (chat)",
    { cfg: byChannel, channel: "discord", peer: dm("1") },
    { agentId: "chat", matchedBy: "default", sessionKey: "agent:chat:main" },
  ],
  [
    "one DM to opus: that DM → opus",
    { cfg: oneDmToOpus, channel: "whatsapp", peer: dm("+15551234567") },
    { agentId: "opus", matchedBy: "binding.peer", sessionKey: "agent:opus:main" },
  ],
  [
    "one DM to opus: other DMs → chat",
    { cfg: oneDmToOpus, channel: "whatsapp", peer: dm("+15550000000") },
    { agentId: "chat", matchedBy: "binding.account", sessionKey: "agent:chat:main" },
  ],
  [
    "one DM to opus: groups → chat with their own session",
    { cfg: oneDmToOpus, channel: "whatsapp", peer: group("G@g.us") },
    {
      agentId: "chat",
      matchedBy: "binding.account",
      sessionKey: "agent:chat:whatsapp:group:g@g.us",
    },
  ],
  [
    "one DM to opus: the peer binding wins even when listed after the channel-wide one",
    { cfg: channelWideFirst, channel: "whatsapp", peer: dm("+15551234567") },
    { agentId: "opus", matchedBy: "binding.peer", sessionKey: "agent:opus:main" },
  ],
  [
    "telegram two bots: default bot → main",
    { cfg: twoBots, channel: "telegram", peer: dm("123456789") },
    {
      agentId: "main",
      accountId: "default",
      matchedBy: "binding.account",
      sessionKey: "agent:main:main",
    },
  ],
  [
    "telegram two bots: explicit default account → main",
    { cfg: twoBots, channel: "telegram", accountId: "default", peer: dm("1") },
    { agentId: "main", matchedBy: "binding.account", sessionKey: "agent:main:main" },
  ],
  [
    "telegram two bots: alerts bot → alerts",
    { cfg: twoBots, channel: "telegram", accountId: "Alerts", peer: dm("123456789") },
    {
      agentId: "alerts",
      accountId: "alerts",
      matchedBy: "binding.account",
      sessionKey: "agent:alerts:main",
    },
  ],
  [
    "telegram two bots: alerts bot group keeps its own session",
    { cfg: twoBots, channel: "telegram", accountId: "alerts", peer: group("-100777") },
    {
      agentId: "alerts",
      matchedBy: "binding.account",
      sessionKey: "agent:alerts:telegram:group:-100777",
    },
  ],
  [
    "family: the bound WhatsApp group → family",
    { cfg: family, channel: "whatsapp", peer: group(FAMILY_GROUP) },
    {
      agentId: "family",
      matchedBy: "binding.peer",
      sessionKey: `agent:family:whatsapp:group:${FAMILY_GROUP}`,
    },
  ],
  [
    "family: another group → default (the sole agent)",
    { cfg: family, channel: "whatsapp", peer: group("other@g.us") },
    {
      agentId: "family",
      matchedBy: "default",
      sessionKey: "agent:family:whatsapp:group:other@g.us",
    },
  ],
  [
    "alex/mia: alex's DM → alex",
    { cfg: alexMia, channel: "whatsapp", peer: dm("+15551230001") },
    { agentId: "alex", matchedBy: "binding.peer", sessionKey: "agent:alex:main" },
  ],
  [
    "alex/mia: mia's DM → mia",
    { cfg: alexMia, channel: "whatsapp", peer: dm("+15551230002") },
    { agentId: "mia", matchedBy: "binding.peer", sessionKey: "agent:mia:main" },
  ],
  [
    "alex/mia: a stranger → first agent alex",
    { cfg: alexMia, channel: "whatsapp", peer: dm("+15559999999") },
    { agentId: "alex", matchedBy: "default", sessionKey: "agent:alex:main" },
  ],
  [
    "support: Slack team T123 → support",
    { cfg: support, channel: "slack", teamId: "T123", peer: { kind: "channel", id: "C1" } },
    { agentId: "support", matchedBy: "binding.team", sessionKey: "agent:support:slack:channel:c1" },
  ],
  [
    "support: Telegram group -100123 → support",
    { cfg: support, channel: "telegram", peer: group("-100123") },
    {
      agentId: "support",
      matchedBy: "binding.peer",
      sessionKey: "agent:support:telegram:group:-100123",
    },
  ],
  [
    "support: a forum topic of that group inherits its binding",
    {
      cfg: support,
      channel: "telegram",
      peer: group("-100123:topic:42"),
      parentPeer: group("-100123"),
    },
    {
      agentId: "support",
      matchedBy: "binding.peer.parent",
      sessionKey: "agent:support:telegram:group:-100123:topic:42",
    },
  ],
  [
    "agents.list example: personal → main",
    { cfg: mainWork, channel: "whatsapp", accountId: "personal", peer: dm("+1") },
    { agentId: "main", matchedBy: "binding.account", sessionKey: "agent:main:main" },
  ],
  [
    "agents.list example: biz → work",
    { cfg: mainWork, channel: "whatsapp", accountId: "biz", peer: dm("+1") },
    { agentId: "work", matchedBy: "binding.account", sessionKey: "agent:work:main" },
  ],
];

describeRouteTable("resolveAgentRoute: documented examples", CASES);
