// Discord end to end through the real gateway (port 0, temp state, the built-in adapter loaders),
// discord.js against the fake Discord, and the fake model: DM pairing approved with the CLI, guild
// mention gating with the reply quoting the message, a forum post keyed under its parent, broadcast
// groups keyed by the channel id, `message send` to channel:/user: targets, `channels status --probe`.
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  BOB,
  type DiscordGateway,
  LAB,
  startDiscordGateway,
  waitForPost,
} from "./helpers/discord-gateway.js";
import { discordMessage } from "./helpers/fake-discord-payloads.js";
import { type GatewaySandbox, type Loose, TEST_TOKEN } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const TOKEN = "discord-main-token";
const BOT = { id: "1100000000000000001", username: "pincer", bot: true };
const DM_CHANNEL = "6100000000000000001";

let running: DiscordGateway | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(
  params: Parameters<typeof startDiscordGateway>[0]["channel"] = {},
  config = {},
) {
  running = await startDiscordGateway({
    bots: [{ accountId: "default", token: TOKEN, bot: BOT }],
    channel: params,
    config,
  });
  return { sandbox: running.sandbox, fake: running.fakes.default! };
}

const cli = (sandbox: GatewaySandbox, argv: string[]) =>
  createCliSandbox(sandbox.env).run([...argv, "--url", sandbox.gw.url, "--token", TEST_TOKEN]);

function transcript(sandbox: GatewaySandbox, agentId: string, sessionKey: string): string {
  const read = sandbox.gw.core.runtime.stores.forAgent(agentId).readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}

const dm = (content: string) =>
  discordMessage({ author: BOB, channelId: DM_CHANNEL, channelType: 1, content });

describe("Discord through the gateway", () => {
  it("pairs an unknown DM sender, then answers after `pairing approve discord <code>`", async () => {
    const { sandbox, fake } = await start();
    fake.dispatch("MESSAGE_CREATE", dm("hello?"));
    const codePost = await waitForPost(fake, DM_CHANNEL);
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codePost.body.content))?.[1];
    expect(code).toBeDefined();
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    const approved = await createCliSandbox(sandbox.env).run([
      "pairing",
      "approve",
      "discord",
      code!,
    ]);
    expect(approved.code).toBe(0);
    sandbox.fake.text("Welcome **aboard**");
    fake.dispatch("MESSAGE_CREATE", dm("now?"));
    const reply = await waitForPost(fake, DM_CHANNEL, 2);
    expect(reply.body.content).toBe("Welcome **aboard**");
    expect(fake.callsTo(`/channels/${DM_CHANNEL}/typing`).length).toBeGreaterThan(0);
    expect(transcript(sandbox, "main", "agent:main:main")).toContain("now?");
  });

  it("answers a guild channel only when mentioned, quoting the message; a forum post keys under its parent", async () => {
    const { sandbox, fake } = await start({ guilds: { [LAB.guild]: { requireMention: true } } });
    const quiet = discordMessage({
      author: BOB,
      channelId: LAB.general,
      guildId: LAB.guild,
      content: "just talking",
    });
    fake.dispatch("MESSAGE_CREATE", quiet);
    sandbox.fake.text("you called?");
    const mention = discordMessage({
      author: BOB,
      channelId: LAB.general,
      guildId: LAB.guild,
      content: `<@${BOT.id}> help`,
      mentions: [BOT],
    });
    fake.dispatch("MESSAGE_CREATE", mention);
    const reply = await waitForPost(fake, LAB.general);
    expect(reply.body).toMatchObject({
      content: "you called?",
      message_reference: { message_id: mention.id },
    });
    expect(fake.callsTo(`/channels/${LAB.general}/messages`)).toHaveLength(1);
    const channelKey = `agent:main:discord:channel:${LAB.general}`;
    // The unmentioned message was kept as context for the triggering one.
    expect(transcript(sandbox, "main", channelKey)).toContain("just talking");

    sandbox.fake.text("in the thread");
    const inPost = discordMessage({
      author: BOB,
      channelId: LAB.post,
      guildId: LAB.guild,
      content: `<@${BOT.id}> thoughts?`,
      mentions: [BOT],
    });
    fake.dispatch("MESSAGE_CREATE", inPost);
    const threadReply = await waitForPost(fake, LAB.post);
    expect(threadReply.body.content).toBe("in the thread");
    const threadKey = `agent:main:discord:channel:${LAB.forum}:thread:${LAB.post}`;
    expect(transcript(sandbox, "main", threadKey)).toContain("thoughts?");
    const entry = sandbox.gw.core.runtime.stores.forAgent("main").get(threadKey);
    expect(entry?.subject).toBe("first post");
  });

  it("a guild's channels map keyed by slug admits only what it names; textChunkLimit and replyToMode off apply", async () => {
    const { sandbox, fake } = await start({
      guilds: { [LAB.guild]: { requireMention: false, channels: { general: { allow: true } } } },
      replyToMode: "off",
      textChunkLimit: 40,
    });
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: LAB.random,
        guildId: LAB.guild,
        content: "not here",
      }),
    );
    sandbox.fake.text(`${"word ".repeat(10).trim()}\n\n${"more ".repeat(10).trim()}`);
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({ author: BOB, channelId: LAB.general, guildId: LAB.guild, content: "here" }),
    );
    await waitForPost(fake, LAB.general, 2);
    const posts = fake.callsTo(`/channels/${LAB.general}/messages`);
    for (const post of posts) {
      expect(String(post.body.content).length).toBeLessThanOrEqual(40);
      expect(post.body.message_reference).toBeUndefined();
    }
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    expect(fake.callsTo(`/channels/${LAB.random}/messages`)).toHaveLength(0);
    expect(transcript(sandbox, "main", `agent:main:discord:channel:${LAB.random}`)).toBe("[]");
  });

  it("fans a broadcast group keyed by the Discord channel id out to each agent", async () => {
    const { sandbox, fake } = await start(
      { groupPolicy: "open", guilds: { "*": { requireMention: false } } },
      {
        agents: {
          list: [{ id: "main" }, { id: "helper", workspace: makeTempDir("pincer-dc-helper-") }],
        },
        broadcast: { strategy: "parallel", [`discord:${LAB.random}`]: ["main", "helper"] },
      },
    );
    sandbox.fake.text("one");
    sandbox.fake.text("two");
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: LAB.random,
        guildId: LAB.guild,
        content: "everyone?",
      }),
    );
    await waitForPost(fake, LAB.random, 2);
    const texts = fake.callsTo(`/channels/${LAB.random}/messages`).map((c) => c.body.content);
    expect(texts.sort()).toEqual(["one", "two"]);
    for (const agent of ["main", "helper"]) {
      expect(transcript(sandbox, agent, `agent:${agent}:discord:channel:${LAB.random}`)).toContain(
        "everyone?",
      );
    }
  });

  it("`message send` reaches channel:<id> and user:<id> (its DM channel); `channels status --probe` names the bot", async () => {
    const { sandbox, fake } = await start();
    const base = ["message", "send", "--channel", "discord"];
    const toChannel = await cli(sandbox, [
      ...base,
      "--to",
      `channel:${LAB.general}`,
      "-m",
      "**ping**",
      "--json",
    ]);
    expect(toChannel.stderr).toBe("");
    expect(JSON.parse(toChannel.stdout)).toMatchObject({
      channel: "discord",
      accountId: "default",
    });
    expect((await waitForPost(fake, LAB.general)).body.content).toBe("**ping**");
    const toUser = await cli(sandbox, [...base, "--to", `user:${BOB.id}`, "-m", "psst"]);
    expect(toUser.code).toBe(0);
    expect(fake.callsTo("/users/@me/channels")[0]?.body).toEqual({ recipient_id: BOB.id });
    expect((await waitForPost(fake, `dm-${BOB.id}`)).body.content).toBe("psst");

    const status = await cli(sandbox, ["channels", "status", "--probe", "--json"]);
    const accounts = (JSON.parse(status.stdout) as Loose).channelAccounts.discord as Loose[];
    expect(accounts[0]).toMatchObject({
      accountId: "default",
      connected: true,
      probe: { ok: true, identity: { id: BOT.id, username: "pincer" } },
    });
    expect(typeof accounts[0]?.probe.latencyMs).toBe("number");
  });

  it("a refused token shows in channels status as 'token rejected' while the supervisor retries", async () => {
    running = await startDiscordGateway({
      bots: [{ accountId: "default", token: TOKEN, bot: BOT, configToken: "revoked-token" }],
    });
    const { sandbox } = running;
    const fake = running.fakes.default!;
    // The first start and at least one supervised restart both ask for the Gateway.
    await fake.waitForCall(() => fake.callsTo("/gateway/bot", "GET").length >= 2);
    const status = await cli(sandbox, ["channels", "status", "--json"]);
    const accounts = (JSON.parse(status.stdout) as Loose).channelAccounts.discord as Loose[];
    expect(accounts[0]).toMatchObject({
      connected: false,
      lastError: expect.stringMatching(/^token rejected/),
    });
    expect(accounts[0]?.restarts).toBeGreaterThanOrEqual(1);
  });
});
