// The real gateway (port 0, temp state, the built-in adapter loaders) with Discord accounts, each
// bot on its own fake Discord, plus the guild the tests use and the calls they wait for.
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import {
  type FakeDiscord,
  type FakeDiscordCall,
  type FakeDiscordUser,
  type FakeGuild,
  startFakeDiscord,
} from "./fake-discord.js";
import { createGatewaySandbox, type GatewaySandbox } from "./gateway-sandbox.js";

/** Ids of the test guild: a text channel, a forum with a post (thread), a second text channel. */
export const LAB = {
  guild: "3100000000000000001",
  general: "4100000000000000001",
  random: "4100000000000000002",
  forum: "4100000000000000003",
  post: "4100000000000000004",
  botRole: "5100000000000000001",
  ops: "5100000000000000002",
} as const;

/** A second guild no binding names. */
export const OTHER_GUILD = { guild: "3200000000000000001", lobby: "4200000000000000001" } as const;

/** A human user. */
export const BOB: FakeDiscordUser = {
  id: "2100000000000000001",
  username: "bob",
  global_name: "Bob",
};

/** The guilds every fake bot is in. */
export function labGuilds(bot: FakeDiscordUser): FakeGuild[] {
  return [
    {
      id: LAB.guild,
      name: "Pincer Lab",
      channels: [
        { id: LAB.general, type: 0, name: "general" },
        { id: LAB.random, type: 0, name: "random" },
        { id: LAB.forum, type: 15, name: "ideas" },
        { id: LAB.post, type: 11, name: "first post", parent_id: LAB.forum },
      ],
      roles: [
        { id: LAB.botRole, name: "pincer" },
        { id: LAB.ops, name: "ops" },
      ],
      members: [{ user: bot, roles: [LAB.botRole] }],
    },
    {
      id: OTHER_GUILD.guild,
      name: "Elsewhere",
      channels: [{ id: OTHER_GUILD.lobby, type: 0, name: "lobby" }],
      members: [{ user: bot, roles: [] }],
    },
  ];
}

/** One bot account: its id in config, token and bot user. */
export interface DiscordBotSpec {
  accountId: string;
  token: string;
  bot: FakeDiscordUser;
  /** Account settings besides token and apiRoot. */
  settings?: Record<string, unknown>;
  /** The token put in config when it is not the one the fake accepts (a refused bot). */
  configToken?: string;
}

/** A gateway with its Discord fakes by account id. */
export interface DiscordGateway {
  sandbox: GatewaySandbox;
  fakes: Record<string, FakeDiscord>;
  close(): Promise<void>;
}

/** Starts one fake per bot, then the gateway with `channels.discord` over them; waits for READY. */
export async function startDiscordGateway(params: {
  bots: DiscordBotSpec[];
  /** `channels.discord` keys besides `accounts`. */
  channel?: Record<string, unknown>;
  /** The rest of the config (agents, bindings, broadcast…). */
  config?: Partial<OpenClawConfig>;
}): Promise<DiscordGateway> {
  const fakes: Record<string, FakeDiscord> = {};
  const accounts: Record<string, unknown> = {};
  for (const spec of params.bots) {
    const fake = await startFakeDiscord({
      token: spec.token,
      bot: spec.bot,
      guilds: labGuilds(spec.bot),
    });
    fakes[spec.accountId] = fake;
    const token = spec.configToken ?? spec.token;
    accounts[spec.accountId] = { token, apiRoot: fake.apiRoot, ...spec.settings };
  }
  const sandbox = await createGatewaySandbox({
    config: () => ({
      ...params.config,
      channels: { discord: { ...params.channel, accounts } } as OpenClawConfig["channels"],
    }),
  });
  const accepted = params.bots.filter((spec) => !spec.configToken);
  await Promise.all(accepted.map((spec) => fakes[spec.accountId]!.waitForReady()));
  return {
    sandbox,
    fakes,
    async close() {
      await sandbox.close();
      for (const fake of Object.values(fakes)) await fake.close();
    },
  };
}

/** Resolves with the `nth` (1-based) message the bot posted to a channel, waiting for it. */
export async function waitForPost(
  fake: FakeDiscord,
  channelId: string,
  nth = 1,
): Promise<FakeDiscordCall> {
  const path = `/channels/${channelId}/messages`;
  await fake.waitForCall(() => fake.callsTo(path).length >= nth);
  return fake.callsTo(path)[nth - 1]!;
}
