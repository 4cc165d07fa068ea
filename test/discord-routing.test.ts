// Every routing tier reachable from real Discord traffic: one config with bindings on a peer, a
// parent peer, guild + roles, a guild, a team, an account and the channel; each message, sent by two
// bots' fake Discords through discord.js into the real gateway, lands on the agent the routing order
// says, with that tier in the session entry's `origin.matchedBy`, and the built `pincer agents route`
// (same flags as the message's facts) agrees. The team tier never matches: Discord has no team id.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  BOB,
  type DiscordGateway,
  LAB,
  OTHER_GUILD,
  startDiscordGateway,
  waitForPost,
} from "./helpers/discord-gateway.js";
import { discordMessage } from "./helpers/fake-discord-payloads.js";
import type { Loose } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(
  root,
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Loose).bin.pincer,
);

const MAIN_BOT = { id: "1200000000000000001", username: "pincer", bot: true };
const SECOND_BOT = { id: "1200000000000000002", username: "pincer-two", bot: true };
const AGENTS = ["peer", "parent", "roles", "guild", "team", "acct", "chan"];
// Made while the file is collected, so they are removed once its tests are done.
const WORKSPACES = new Map(AGENTS.map((id) => [id, makeTempDir(`pincer-dc-route-${id}-`)]));

const bindings: OpenClawConfig["bindings"] = [
  { agentId: "peer", match: { channel: "discord", peer: { kind: "channel", id: LAB.general } } },
  { agentId: "parent", match: { channel: "discord", peer: { kind: "channel", id: LAB.forum } } },
  { agentId: "roles", match: { channel: "discord", guildId: LAB.guild, roles: [LAB.ops] } },
  { agentId: "guild", match: { channel: "discord", guildId: LAB.guild } },
  { agentId: "team", match: { channel: "discord", teamId: "T0000001" } },
  { agentId: "acct", match: { channel: "discord", accountId: "second" } },
  { agentId: "chan", match: { channel: "discord", accountId: "*" } },
];

interface Case {
  name: string;
  account: "default" | "second";
  channelId: string;
  guildId?: string;
  roles?: string[];
  /** The thread's parent (the message is in a forum post). */
  parent?: string;
  dm?: boolean;
  agent: string;
  matchedBy: string;
  sessionKey: string;
}

const CASES: Case[] = [
  {
    name: "a bound channel (peer beats guild + roles)",
    account: "default",
    channelId: LAB.general,
    guildId: LAB.guild,
    roles: [LAB.ops],
    agent: "peer",
    matchedBy: "binding.peer",
    sessionKey: `agent:peer:discord:channel:${LAB.general}`,
  },
  {
    name: "a post in a bound forum (the parent peer)",
    account: "default",
    channelId: LAB.post,
    guildId: LAB.guild,
    parent: LAB.forum,
    agent: "parent",
    matchedBy: "binding.peer.parent",
    sessionKey: `agent:parent:discord:channel:${LAB.forum}:thread:${LAB.post}`,
  },
  {
    name: "an unbound channel, sender holding the bound role",
    account: "default",
    channelId: LAB.random,
    guildId: LAB.guild,
    roles: [LAB.ops],
    agent: "roles",
    matchedBy: "binding.guild+roles",
    sessionKey: `agent:roles:discord:channel:${LAB.random}`,
  },
  {
    name: "an unbound channel, sender without the role",
    account: "default",
    channelId: LAB.random,
    guildId: LAB.guild,
    agent: "guild",
    matchedBy: "binding.guild",
    sessionKey: `agent:guild:discord:channel:${LAB.random}`,
  },
  {
    name: "an unbound guild on the second bot (the account)",
    account: "second",
    channelId: OTHER_GUILD.lobby,
    guildId: OTHER_GUILD.guild,
    agent: "acct",
    matchedBy: "binding.account",
    sessionKey: `agent:acct:discord:channel:${OTHER_GUILD.lobby}`,
  },
  {
    name: "an unbound guild on the default bot (the channel; never the team)",
    account: "default",
    channelId: OTHER_GUILD.lobby,
    guildId: OTHER_GUILD.guild,
    agent: "chan",
    matchedBy: "binding.channel",
    sessionKey: `agent:chan:discord:channel:${OTHER_GUILD.lobby}`,
  },
  {
    name: "a DM to the second bot (the account)",
    account: "second",
    channelId: "6200000000000000001",
    dm: true,
    agent: "acct",
    matchedBy: "binding.account",
    sessionKey: "agent:acct:main",
  },
];

let gateway: DiscordGateway;
beforeAll(async () => {
  gateway = await startDiscordGateway({
    bots: [
      { accountId: "default", token: "discord-token-main", bot: MAIN_BOT },
      { accountId: "second", token: "discord-token-second", bot: SECOND_BOT },
    ],
    channel: {
      groupPolicy: "open",
      guilds: { "*": { requireMention: false } },
      dmPolicy: "open",
      allowFrom: ["*"],
    },
    config: {
      agents: {
        list: [{ id: "main" }, ...AGENTS.map((id) => ({ id, workspace: WORKSPACES.get(id)! }))],
      },
      bindings,
    },
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
});

function cliRoute(testCase: Case): Loose {
  const { sandbox } = gateway;
  const args = ["agents", "route", "--channel", "discord", "--account", testCase.account, "--json"];
  args.push("--peer", testCase.dm ? `direct:${BOB.id}` : `channel:${testCase.channelId}`);
  if (testCase.parent) args.push("--parent-peer", `channel:${testCase.parent}`);
  if (testCase.guildId) args.push("--guild", testCase.guildId);
  if (testCase.roles) args.push("--roles", testCase.roles.join(","));
  const env = { PATH: process.env.PATH, ...sandbox.env };
  const res = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });
  expect(res.stderr).toBe("");
  return (JSON.parse(res.stdout) as Loose).route as Loose;
}

describe("Discord routing, every tier from real traffic", () => {
  it.each(CASES)("$name → $agent ($matchedBy)", async (testCase) => {
    const { sandbox, fakes } = gateway;
    const fake = fakes[testCase.account]!;
    const before = fake.callsTo(`/channels/${testCase.channelId}/messages`).length;
    sandbox.fake.text(`answer from ${testCase.agent}`);
    const message = discordMessage({
      author: BOB,
      channelId: testCase.channelId,
      content: `route me: ${testCase.name}`,
      ...(testCase.dm
        ? { channelType: 1 }
        : { guildId: testCase.guildId!, memberRoles: testCase.roles ?? [] }),
    });
    fake.dispatch("MESSAGE_CREATE", message);
    await waitForPost(fake, testCase.channelId, before + 1);
    const store = sandbox.gw.core.runtime.stores.forAgent(testCase.agent);
    const entry = store.get(testCase.sessionKey);
    expect(entry?.origin?.matchedBy).toBe(testCase.matchedBy);
    const transcript = JSON.stringify(store.readTranscript(testCase.sessionKey)?.entries ?? []);
    expect(transcript).toContain(`route me: ${testCase.name}`);
    const route = cliRoute(testCase);
    expect({ agentId: route.agentId, matchedBy: route.matchedBy }).toEqual({
      agentId: testCase.agent,
      matchedBy: testCase.matchedBy,
    });
  });

  it("never ran the team-bound agent", () => {
    const store = gateway.sandbox.gw.core.runtime.stores.forAgent("team");
    for (const testCase of CASES) {
      expect(
        store.get(testCase.sessionKey.replace(`agent:${testCase.agent}:`, "agent:team:")),
      ).toBeUndefined();
    }
  });
});
