// Every routing tier Slack traffic can reach, end to end: one config with bindings on a channel
// (peer), a DM (peer), guild+roles and guild (never matched on Slack: no guild ids), a team, an
// account and the channel; each event goes through the fake Socket Mode server into the real
// gateway and must land on the agent and session the routing order says, with the tier recorded in
// the session entry (`origin.matchedBy`), and `pincer agents route` must agree. A thread's peer is
// its channel, so `binding.peer.parent` is never reached either: the thread routes by `binding.peer`.
// Broadcast groups keyed by a Slack channel id fan out to each agent's own session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import type { FakeSlackBot } from "./helpers/fake-slack.js";
import type { Loose } from "./helpers/gateway-sandbox.js";
import {
  BOT,
  type SlackGateway,
  slackMessage,
  startSlackGateway,
  waitForPost,
} from "./helpers/slack-gateway.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const OPS: FakeSlackBot = {
  botToken: "xoxb-ops-3",
  appToken: "xapp-ops-3",
  userId: "UBOT3",
  botId: "BBOT3",
  user: "ops-bot",
  team: "Ops",
  teamId: "T2",
};
const MISC: FakeSlackBot = {
  botToken: "xoxb-misc-4",
  appToken: "xapp-misc-4",
  userId: "UBOT4",
  botId: "BBOT4",
  user: "misc-bot",
  team: "Misc",
  teamId: "T3",
};
const BOTS: Record<string, FakeSlackBot> = { default: BOT, ops: OPS, misc: MISC };

const AGENTS = ["peer", "vip", "guildroles", "guild", "team", "account", "chan", "b1", "b2"];
// Made while the file is collected, so they are removed when its tests end.
const WORKSPACES = Object.fromEntries(AGENTS.map((id) => [id, makeTempDir(`pincer-slack-${id}-`)]));

const account = (bot: FakeSlackBot, apiUrl: string) => ({
  botToken: bot.botToken,
  appToken: bot.appToken,
  apiUrl,
  dmPolicy: "open",
  allowFrom: ["*"],
  groupPolicy: "open",
});

let setup: SlackGateway;
beforeAll(async () => {
  setup = await startSlackGateway({
    bots: [OPS, MISC],
    slackConfig: (apiUrl) => ({
      accounts: {
        default: account(BOT, apiUrl),
        ops: account(OPS, apiUrl),
        misc: account(MISC, apiUrl),
      },
    }),
    agents: [
      { id: "main", default: true },
      ...AGENTS.map((id) => ({ id, workspace: WORKSPACES[id] })),
    ],
    bindings: [
      { agentId: "peer", match: { channel: "slack", peer: { kind: "channel", id: "CPEER" } } },
      { agentId: "vip", match: { channel: "slack", peer: { kind: "direct", id: "UVIP" } } },
      { agentId: "guildroles", match: { channel: "slack", guildId: "T1", roles: ["R1"] } },
      { agentId: "guild", match: { channel: "slack", guildId: "T1" } },
      { agentId: "team", match: { channel: "slack", teamId: "T1" } },
      { agentId: "account", match: { channel: "slack", accountId: "ops" } },
      { agentId: "chan", match: { channel: "slack", accountId: "*" } },
    ],
    extra: {
      broadcast: {
        strategy: "parallel",
        "slack:CBCAST": ["b1", "b2"],
      } as OpenClawConfig["broadcast"],
    },
    waitFor: [BOT.appToken!, OPS.appToken!, MISC.appToken!],
  });
}, 60_000);
afterAll(async () => {
  await setup?.box.close();
  await setup?.slack.close();
});

interface Row {
  name: string;
  accountId: keyof typeof BOTS;
  event: Record<string, unknown>;
  agentId: string;
  sessionKey: string;
  matchedBy: string;
  /** `pincer agents route` flags for the same message. */
  route: string[];
  replyIn: string;
}

let ts = 1700001000;
const nextTs = () => `${ts++}.000100`;

function mention(
  bot: FakeSlackBot,
  channel: string,
  extra: { threadTs?: string; team?: string } = {},
) {
  return slackMessage({
    channel,
    channelType: "channel",
    text: `<@${bot.userId}> route me`,
    ts: nextTs(),
    ...(extra.threadTs ? { threadTs: extra.threadTs } : {}),
    extra: { team: extra.team ?? bot.teamId },
  });
}

const threadTs = "1700000999.000100";
const rows: Row[] = [
  {
    name: "a channel bound by id → binding.peer",
    accountId: "default",
    event: mention(BOT, "CPEER"),
    agentId: "peer",
    sessionKey: "agent:peer:slack:channel:cpeer",
    matchedBy: "binding.peer",
    route: ["--account", "default", "--peer", "channel:CPEER", "--team", "T1"],
    replyIn: "CPEER",
  },
  {
    name: "a thread in that channel → binding.peer (its parent is its channel), thread session",
    accountId: "default",
    event: mention(BOT, "CPEER", { threadTs }),
    agentId: "peer",
    sessionKey: `agent:peer:slack:channel:cpeer:thread:${threadTs}`,
    matchedBy: "binding.peer",
    route: [
      "--account",
      "default",
      "--peer",
      "channel:CPEER",
      "--parent-peer",
      "channel:CPEER",
      "--team",
      "T1",
    ],
    replyIn: "CPEER",
  },
  {
    name: "a DM from a bound user → binding.peer, the agent's main session",
    accountId: "default",
    event: slackMessage({
      channel: "DVIP1",
      channelType: "im",
      user: "UVIP",
      text: "hi",
      ts: nextTs(),
    }),
    agentId: "vip",
    sessionKey: "agent:vip:main",
    matchedBy: "binding.peer",
    route: ["--account", "default", "--peer", "direct:UVIP", "--team", "T1"],
    replyIn: "DVIP1",
  },
  {
    name: "another channel of team T1 → binding.team (the guild bindings on T1 never match Slack)",
    accountId: "default",
    event: mention(BOT, "COTHER"),
    agentId: "team",
    sessionKey: "agent:team:slack:channel:cother",
    matchedBy: "binding.team",
    route: ["--account", "default", "--peer", "channel:COTHER", "--team", "T1"],
    replyIn: "COTHER",
  },
  {
    name: "the ops account's channel → binding.account",
    accountId: "ops",
    event: mention(OPS, "COPS"),
    agentId: "account",
    sessionKey: "agent:account:slack:channel:cops",
    matchedBy: "binding.account",
    route: ["--account", "ops", "--peer", "channel:COPS", "--team", "T2"],
    replyIn: "COPS",
  },
  {
    name: "the misc account's channel → binding.channel",
    accountId: "misc",
    event: mention(MISC, "CMISC"),
    agentId: "chan",
    sessionKey: "agent:chan:slack:channel:cmisc",
    matchedBy: "binding.channel",
    route: ["--account", "misc", "--peer", "channel:CMISC", "--team", "T3"],
    replyIn: "CMISC",
  },
];

describe("Slack routing, end to end", () => {
  it.each(rows)("$name", async (row) => {
    const { box, slack } = setup;
    box.fake.text(`reply for ${row.agentId}`);
    const bot = BOTS[row.accountId]!;
    const before = slack
      .callsOf("chat.postMessage")
      .filter((c) => c.params.channel === row.replyIn).length;
    const envelope = slack.sendEnvelope(bot.appToken!, { event: row.event, teamId: bot.teamId });
    await slack.waitForAck(envelope);
    const reply = await waitForPost(slack, row.replyIn, before + 1);
    expect(reply.token).toBe(bot.botToken);
    const entry = box.gw.core.runtime.stores.forAgent(row.agentId).get(row.sessionKey) as
      | Loose
      | undefined;
    expect(entry?.origin?.matchedBy).toBe(row.matchedBy);
    const routed = await createCliSandbox(box.env).run([
      "agents",
      "route",
      "--channel",
      "slack",
      ...row.route,
      "--json",
    ]);
    expect(routed.code).toBe(0);
    const route = JSON.parse(routed.stdout) as Loose;
    expect(route.route ?? route).toMatchObject({ agentId: row.agentId, matchedBy: row.matchedBy });
  });

  it("no Slack message reaches the guild tiers: the route CLI needs a guild id for them", async () => {
    const routed = await createCliSandbox(setup.box.env).run([
      "agents",
      "route",
      "--channel",
      "slack",
      "--account",
      "default",
      "--peer",
      "channel:CZ",
      "--guild",
      "T1",
      "--roles",
      "R1",
      "--json",
    ]);
    const route = JSON.parse(routed.stdout) as Loose;
    expect(route.route ?? route).toMatchObject({
      agentId: "guildroles",
      matchedBy: "binding.guild+roles",
    });
    // The same message as Slack delivers it carries a team, never a guild: binding.team.
    for (const store of ["guildroles", "guild"]) {
      expect(setup.box.gw.core.runtime.stores.forAgent(store).list()).toHaveLength(0);
    }
  });

  it("a broadcast group keyed by a Slack channel id runs each agent in its own session", async () => {
    const { box, slack } = setup;
    box.fake.text("from a broadcast agent");
    box.fake.text("from a broadcast agent");
    const envelope = slack.sendEnvelope(BOT.appToken!, { event: mention(BOT, "CBCAST") });
    await slack.waitForAck(envelope);
    await waitForPost(slack, "CBCAST", 2);
    for (const agent of ["b1", "b2"])
      expect(
        box.gw.core.runtime.stores.forAgent(agent).get(`agent:${agent}:slack:channel:cbcast`),
      ).toBeDefined();
  });
});
