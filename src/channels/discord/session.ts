// One account's discord.js client: the only module that loads discord.js (imported when an account
// starts). Guilds, guild messages, DMs and message content intents; JSON Gateway without compression;
// REST against `apiRoot` with discord.js's own retries and rate-limit waits off (a 429 throws at once,
// so a send reports it as a retryable value with Discord's `retry_after`). Raw MESSAGE_CREATE payloads
// go to `onMessage`; the cache answers what a message's channel and guild are. Reconnects and resumes
// are discord.js's; a close it will not recover from (a refused token 4004, disallowed intents 4014),
// or a refused login, settles `ended` as failed with a sentence saying what to fix.
import type { ChannelAccountEnd, Logger } from "../index.js";
import type { DiscordChannelFacts, DiscordGuildFacts, DiscordSelf } from "./inbound.js";
import type { DiscordRest } from "./send.js";
import type { DiscordAccountSettings } from "./settings.js";

/** A running client, seen through what the adapter needs. */
export interface DiscordSession {
  rest: DiscordRest;
  /** Settles with the bot's identity once the client is ready (undefined if it ended first). */
  ready: Promise<DiscordSelf | undefined>;
  ended: Promise<ChannelAccountEnd>;
  /** What the cache (else a REST fetch) knows of a channel and its guild. */
  lookup(params: { channelId: string; guildId?: string }): Promise<{
    channel?: DiscordChannelFacts;
    guild?: DiscordGuildFacts;
  }>;
  destroy(): Promise<void>;
}

/** Inputs for {@link openDiscordSession}. */
export interface OpenDiscordSessionParams {
  settings: DiscordAccountSettings;
  log: Logger;
  /** Connection changes, for the account's status. */
  onConnected(connected: boolean, self?: DiscordSelf): void;
  /** Every MESSAGE_CREATE payload, in Gateway order. */
  onMessage(payload: unknown): void;
}

const PORTAL = "the Discord Developer Portal (your application → Bot → Privileged Gateway Intents)";

/** What an unrecoverable Gateway close code means, in words a user can act on. */
export function describeDiscordClose(code: number): string {
  switch (code) {
    case 4004:
      return "token rejected: Discord closed the Gateway with 4004 (authentication failed); check channels.discord.token";
    case 4014:
      return `disallowed intents (4014): enable the Message Content Intent in ${PORTAL}`;
    case 4013:
      return "invalid intents (4013): Discord refused the intents the adapter asked for";
    case 4012:
      return "invalid API version (4012): the Gateway refused API v10";
    case 4011:
      return "sharding required (4011): the bot is in too many guilds for one connection";
    case 4010:
      return "invalid shard (4010)";
    default:
      return `the Gateway closed with ${code} and discord.js will not reconnect`;
  }
}

function loginError(err: unknown): string {
  const fields = (typeof err === "object" && err !== null ? err : {}) as Record<string, unknown>;
  const text = err instanceof Error ? err.message : String(err);
  if (fields.code === "TokenInvalid" || fields.status === 401) {
    return `token rejected: Discord answered 401 to GET /gateway/bot (${text}); check channels.discord.token`;
  }
  return `login failed: ${text}`;
}

/** Creates the client and starts its login; never rejects after the import. */
export async function openDiscordSession(
  params: OpenDiscordSessionParams,
): Promise<DiscordSession> {
  const { Client, Events, GatewayIntentBits, Partials } = await import("discord.js");
  const { settings, log } = params;
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    partials: [Partials.Channel],
    rest: {
      api: settings.apiRoot,
      timeout: settings.timeoutMs,
      retries: 0,
      rejectOnRateLimit: () => true,
    },
  });
  client.rest.setToken(settings.token);
  let settle: (end: ChannelAccountEnd) => void = () => {};
  let markReady: (self: DiscordSelf | undefined) => void = () => {};
  const ended = new Promise<ChannelAccountEnd>((resolve) => {
    settle = (end) => {
      settle = () => {};
      markReady(undefined);
      resolve(end);
    };
  });
  const ready = new Promise<DiscordSelf | undefined>((resolve) => {
    markReady = (self) => {
      markReady = () => {};
      resolve(self);
    };
  });
  const fail = (error: string) => {
    log.warn({ error }, "discord: client stopped");
    params.onConnected(false);
    settle({ failed: true, error });
    void client.destroy().catch((err: unknown) => log.warn({ err }, "discord: destroy failed"));
  };
  const selfOf = (): DiscordSelf | undefined =>
    client.user ? { id: client.user.id, username: client.user.username } : undefined;

  client.on(Events.Raw, (packet: { t?: unknown; d?: unknown }) => {
    if (packet.t === "MESSAGE_CREATE") params.onMessage(packet.d);
  });
  client.once(Events.ClientReady, () => {
    const self = selfOf();
    log.info({ bot: self?.username }, "discord: connected");
    params.onConnected(true, self);
    markReady(self);
  });
  client.on(Events.ShardReconnecting, () => params.onConnected(false));
  client.on(Events.ShardResume, () => params.onConnected(true, selfOf()));
  client.on(Events.ShardDisconnect, (event: { code: number }) =>
    fail(describeDiscordClose(event.code)),
  );
  client.on(Events.Invalidated, () => fail("the Gateway session was invalidated"));
  client.on(Events.Error, (err: Error) =>
    log.warn({ error: err.message }, "discord: client error"),
  );
  client.on(Events.ShardError, (err: Error) =>
    log.warn({ error: err.message }, "discord: connection error"),
  );
  client.login(settings.token).catch((err: unknown) => fail(loginError(err)));

  return {
    rest: client.rest as unknown as DiscordRest,
    ready,
    ended,
    async lookup({ channelId, guildId }) {
      let channel = client.channels.cache.get(channelId);
      if (!channel && guildId) {
        channel =
          (await client.channels.fetch(channelId).catch((err: unknown) => {
            log.warn({ channelId, error: (err as Error).message }, "discord: channel unknown");
            return null;
          })) ?? undefined;
      }
      const facts: { channel?: DiscordChannelFacts; guild?: DiscordGuildFacts } = {};
      if (channel) {
        const named = channel as {
          name?: unknown;
          parentId?: unknown;
          parent?: { name?: unknown } | null;
        };
        facts.channel = { type: channel.type };
        if (typeof named.name === "string") facts.channel.name = named.name;
        if (typeof named.parentId === "string") facts.channel.parentId = named.parentId;
        if (typeof named.parent?.name === "string") facts.channel.parentName = named.parent.name;
      }
      const guild = guildId ? client.guilds.cache.get(guildId) : undefined;
      if (guild) {
        const roles = guild.members.me ? [...guild.members.me.roles.cache.keys()] : [];
        facts.guild = { name: guild.name, selfRoleIds: roles.filter((id) => id !== guild.id) };
      }
      return facts;
    },
    async destroy() {
      settle({ failed: false });
      await client.destroy();
    },
  };
}
