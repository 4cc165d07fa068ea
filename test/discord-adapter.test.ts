// The Discord adapter (real discord.js) against the fake Discord: connect (IDENTIFY with the intents),
// inbound conversion of guild, thread, DM and reply messages, bots and group DMs filtered, malformed
// dispatches skipped, sends (chunks, references, DMs, uploads) and their failures as values, probe,
// and the ends that need the supervisor (a refused token, disallowed intents).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/channels/discord/index.js";
import type { ChannelAccountRuntime } from "../src/channels/types.js";
import {
  createTestAccountContext,
  removeStateDir,
  type TestAccountContext,
} from "./helpers/channel-account-context.js";
import {
  type FakeDiscord,
  type FakeDiscordUser,
  type FakeGuild,
  startFakeDiscord,
} from "./helpers/fake-discord.js";
import { discordMessage } from "./helpers/fake-discord-payloads.js";
import { closedPort } from "./helpers/gateway-sandbox.js";

const TOKEN = "discord-test-token";
const BOT = { id: "1000000000000000001", username: "pincer", bot: true };
const BOB: FakeDiscordUser = { id: "2000000000000000002", username: "bob", global_name: "Bob" };
const OTHER_BOT = { id: "2000000000000000003", username: "otherbot", bot: true };
const GUILD: FakeGuild = {
  id: "3000000000000000001",
  name: "Pincer Lab",
  channels: [
    { id: "4000000000000000001", type: 0, name: "general" },
    { id: "4000000000000000002", type: 15, name: "ideas" },
    { id: "4000000000000000003", type: 11, name: "a post", parent_id: "4000000000000000002" },
  ],
  roles: [
    { id: "5000000000000000001", name: "pincer-role" },
    { id: "5000000000000000002", name: "ops" },
  ],
  members: [{ user: BOT, roles: ["5000000000000000001"] }],
};

let fake: FakeDiscord | undefined;
const running: Array<{ runtime: ChannelAccountRuntime; recorder: TestAccountContext }> = [];
afterEach(async () => {
  for (const { runtime, recorder } of running.splice(0)) {
    await runtime.stop();
    removeStateDir(recorder.context.stateDir);
  }
  await fake?.close();
  fake = undefined;
});

async function start(config: Record<string, unknown> = {}, token = TOKEN) {
  fake = await startFakeDiscord({ token: TOKEN, bot: BOT, guilds: [GUILD] });
  const recorder = createTestAccountContext({
    channel: "discord",
    accountId: "default",
    config: { token, apiRoot: fake.apiRoot, ...config },
  });
  const runtime = await createDiscordAdapter({ receiveRetryDelayMs: 10 }).start(recorder.context);
  running.push({ runtime, recorder });
  return { fake, recorder, runtime };
}

describe("Discord adapter (discord.js against the fake Discord)", () => {
  it("connects with the intents it needs and converts a guild message mentioning its role", async () => {
    const { fake, recorder } = await start();
    await recorder.waitForReport((r) => r.connected === true);
    expect(recorder.status().identity).toMatchObject({ id: BOT.id, username: "pincer" });
    const intents = Number(fake.identifies[0]?.intents);
    for (const bit of [1, 512, 4096, 32768]) expect(intents & bit).toBe(bit);
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "4000000000000000001",
        guildId: GUILD.id,
        content: "<@&5000000000000000001> hello",
        memberRoles: ["5000000000000000002"],
        mentionRoles: ["5000000000000000001"],
      }),
    );
    const [inbound] = await recorder.waitForReceived(1);
    expect(inbound).toMatchObject({
      channel: "discord",
      peer: { kind: "channel", id: "4000000000000000001" },
      peerName: "general",
      guildId: GUILD.id,
      guildName: "Pincer Lab",
      memberRoleIds: ["5000000000000000002"],
      sender: { id: BOB.id, name: "Bob", username: "bob" },
      mentionedSelf: true,
    });
  });

  it("keys a forum post by its thread under the parent, a DM by the user, a reply into replyTo", async () => {
    const { fake, recorder } = await start();
    await fake.waitForReady();
    await recorder.waitForReport((r) => r.connected === true);
    const catUrl = fake.serveAttachment("cat.png", Buffer.from("png-bytes"));
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "4000000000000000003",
        guildId: GUILD.id,
        content: "in the post",
      }),
    );
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "6000000000000000001",
        channelType: 1,
        content: "a DM",
        referenced: {
          id: "7000000000000000001",
          content: "earlier",
          author: BOT,
          channel_id: "6000000000000000001",
        },
        attachments: [
          {
            id: "8000000000000000001",
            filename: "cat.png",
            content_type: "image/png",
            size: 9,
            url: catUrl,
          },
        ],
      }),
    );
    const [thread, dm] = await recorder.waitForReceived(2);
    expect(thread).toMatchObject({
      peer: { kind: "channel", id: "4000000000000000003" },
      parentPeer: { kind: "channel", id: "4000000000000000002" },
      parentPeerName: "ideas",
      peerName: "a post",
      threadId: "4000000000000000003",
      mentionedSelf: false,
    });
    expect(dm).toMatchObject({
      peer: { kind: "direct", id: BOB.id },
      replyTo: { id: "7000000000000000001", body: "earlier", sender: "pincer" },
      mentionedSelf: true,
      media: [
        {
          kind: "image",
          fileName: "cat.png",
          mimeType: "image/png",
          url: catUrl,
          data: Buffer.from("png-bytes").toString("base64"),
        },
      ],
    });
    expect(dm?.guildId).toBeUndefined();
  });

  it("ignores its own and other bots' messages (unless allowBots), drops group DMs, skips malformed ones", async () => {
    const { fake, recorder } = await start({
      dm: { groupEnabled: true, groupChannels: ["6000000000000000009"] },
    });
    await fake.waitForReady();
    await recorder.waitForReport((r) => r.connected === true);
    const inGeneral = (author: typeof BOB, content: string) =>
      discordMessage({ author, channelId: "4000000000000000001", guildId: GUILD.id, content });
    fake.dispatch("MESSAGE_CREATE", inGeneral(BOT, "my own"));
    fake.dispatch("MESSAGE_CREATE", inGeneral(OTHER_BOT, "a bot"));
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "6000000000000000008",
        channelType: 3,
        content: "group, not listed",
      }),
    );
    fake.dispatch("MESSAGE_CREATE", { ...inGeneral(BOB, "bad"), channel_id: 42 });
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "6000000000000000009",
        channelType: 3,
        content: "group, listed",
      }),
    );
    const [only] = await recorder.waitForReceived(1);
    expect(only).toMatchObject({
      text: "group, listed",
      peer: { kind: "group", id: "6000000000000000009" },
    });
    expect(recorder.received).toHaveLength(1);
    const skipped = recorder.logs.find((l) => l.message === "channel update skipped: malformed");
    expect(skipped?.fields.reason).toMatch(/^channel_id: expected a snowflake string/);
    const dropped = recorder.logs.find((l) => l.message === "discord: message dropped");
    expect(dropped?.fields.reason).toMatch(/not in dm.groupChannels/);
  });

  it("heartbeats on HELLO's interval and stays on the one session while they are acknowledged", async () => {
    fake = await startFakeDiscord({
      token: TOKEN,
      bot: BOT,
      guilds: [GUILD],
      heartbeatIntervalMs: 50,
    });
    const recorder = createTestAccountContext({
      channel: "discord",
      accountId: "default",
      config: { token: TOKEN, apiRoot: fake.apiRoot },
    });
    const runtime = await createDiscordAdapter().start(recorder.context);
    running.push({ runtime, recorder });
    await fake.waitForHeartbeats(3);
    expect(fake.identifies).toHaveLength(1);
    expect(recorder.reports.filter((r) => r.connected === false)).toHaveLength(0);
  });

  it("resumes after the Gateway drops the connection and goes on receiving", async () => {
    const { fake, recorder } = await start();
    await recorder.waitForReport((r) => r.connected === true);
    fake.closeSessions(4000);
    await fake.waitForResume();
    await recorder.waitForReport((r) => r.connected === false);
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: BOB,
        channelId: "4000000000000000001",
        guildId: GUILD.id,
        content: "still there?",
      }),
    );
    const [inbound] = await recorder.waitForReceived(1);
    expect(inbound?.text).toBe("still there?");
    expect(fake.identifies).toHaveLength(1);
    expect(recorder.reports.at(-1)).toMatchObject({ connected: true });
  });

  it("hands on other bots' messages under allowBots, and retries a rejected receive", async () => {
    const { fake, recorder } = await start({ allowBots: true });
    await recorder.waitForReport((r) => r.connected === true);
    let rejections = 1;
    recorder.onReceive = async () => {
      if (rejections-- > 0) throw new Error("journal busy");
    };
    fake.dispatch(
      "MESSAGE_CREATE",
      discordMessage({
        author: OTHER_BOT,
        channelId: "4000000000000000001",
        guildId: GUILD.id,
        content: "beep",
      }),
    );
    const [inbound] = await recorder.waitForReceived(1);
    expect(inbound?.sender.id).toBe(OTHER_BOT.id);
    expect(recorder.logs.some((l) => l.message.startsWith("channel receive failed"))).toBe(true);
  });

  it("sends chunks to 2000 characters, quoting the reply only on the first; DMs open their channel", async () => {
    const { fake, runtime } = await start();
    const text = `${"a".repeat(1500)}\n\n${"b".repeat(1500)}`;
    const sent = await runtime.send({
      target: {
        accountId: "default",
        peer: { kind: "channel", id: "4000000000000000001" },
        replyToId: "7000000000000000005",
      },
      text,
    });
    expect(sent.ok).toBe(true);
    const posts = fake.callsTo("/channels/4000000000000000001/messages");
    expect(posts.map((c) => String(c.body.content).length)).toEqual([1500, 1500]);
    expect(posts[0]?.body.message_reference).toMatchObject({ message_id: "7000000000000000005" });
    expect(posts[1]?.body.message_reference).toBeUndefined();
    expect(posts[0]?.auth).toBe(`Bot ${TOKEN}`);

    const dm = await runtime.send({
      target: { accountId: "default", peer: { kind: "direct", id: BOB.id } },
      text: "hi",
    });
    expect(dm.ok).toBe(true);
    expect(fake.callsTo("/users/@me/channels")[0]?.body).toEqual({ recipient_id: BOB.id });
    expect(fake.callsTo(`/channels/dm-${BOB.id}/messages`)).toHaveLength(1);
    await runtime.send({
      target: { accountId: "default", peer: { kind: "direct", id: BOB.id } },
      text: "again",
    });
    expect(fake.callsTo("/users/@me/channels")).toHaveLength(1);
    await runtime.sendTyping?.({
      accountId: "default",
      peer: { kind: "channel", id: "4000000000000000003" },
      threadId: "4000000000000000003",
    });
    expect(fake.callsTo("/channels/4000000000000000003/typing")).toHaveLength(1);
  });

  it("uploads a local file as a multipart attachment and sends a URL as a link", async () => {
    const { fake, runtime, recorder } = await start();
    const file = join(recorder.context.stateDir, "report.txt");
    writeFileSync(file, "hello file");
    const sent = await runtime.send({
      target: { accountId: "default", peer: { kind: "channel", id: "4000000000000000001" } },
      media: [{ path: file, caption: "the report" }, { url: "https://example.com/a.png" }],
    });
    expect(sent.ok).toBe(true);
    const [upload, link] = fake.callsTo("/channels/4000000000000000001/messages");
    expect(upload?.files).toEqual([{ field: "files[0]", name: "report.txt", size: 10 }]);
    expect(upload?.body.content).toBe("the report");
    expect(link?.body.content).toBe("https://example.com/a.png");
  });

  it("reports send failures as values: 429 with retry_after, 5xx, 4xx, a timeout (uncertain)", async () => {
    const { fake, runtime } = await start({ timeoutSeconds: 0.3 });
    const target = {
      accountId: "default",
      peer: { kind: "channel" as const, id: "4000000000000000001" },
    };
    const route = "/channels/4000000000000000001/messages";
    fake.fail({ path: route, kind: "rate-limit", retryAfter: 2.5 });
    const limited = await runtime.send({ target, text: "x" });
    expect(limited).toMatchObject({ ok: false, failure: { retryable: true, code: "discord_429" } });
    // Discord's retry_after, plus discord.js's 50 ms safety offset.
    const wait = limited.ok ? 0 : (limited.failure.retryAfterMs ?? 0);
    expect(wait).toBeGreaterThanOrEqual(2500);
    expect(wait).toBeLessThan(2600);
    fake.fail({ path: route, kind: "status", status: 502 });
    expect(await runtime.send({ target, text: "x" })).toMatchObject({
      ok: false,
      failure: { retryable: true },
    });
    fake.fail({ path: route, kind: "status", status: 403 });
    expect(await runtime.send({ target, text: "x" })).toMatchObject({
      ok: false,
      failure: { retryable: false },
    });
    fake.fail({ path: route, kind: "hang" });
    expect(await runtime.send({ target, text: "x" })).toMatchObject({
      ok: false,
      failure: { retryable: false, uncertain: true, code: "timeout" },
    });
    const probe = await runtime.probe();
    expect(probe).toMatchObject({ ok: true, identity: { id: BOT.id, username: "pincer" } });
  });

  it("reports a refused connection as retryable (nothing reached Discord)", async () => {
    const port = await closedPort();
    const recorder = createTestAccountContext({
      channel: "discord",
      accountId: "default",
      config: { token: TOKEN, apiRoot: `http://127.0.0.1:${port}/api` },
    });
    const runtime = await createDiscordAdapter().start(recorder.context);
    running.push({ runtime, recorder });
    const target = {
      accountId: "default",
      peer: { kind: "channel" as const, id: "4000000000000000001" },
    };
    expect(await runtime.send({ target, text: "x" })).toMatchObject({
      ok: false,
      failure: { retryable: true, code: "connection_failed" },
    });
    expect(await runtime.ended).toMatchObject({
      failed: true,
      error: expect.stringMatching(/^login failed/),
    });
  });

  it("ends failed with 'token rejected' on a 401 from GET /gateway/bot", async () => {
    const { runtime } = await start({}, "wrong-token");
    const end = await runtime.ended;
    expect(end).toMatchObject({ failed: true, error: expect.stringMatching(/^token rejected/) });
  });

  it("ends failed naming the intent to enable when the Gateway closes 4014", async () => {
    fake = await startFakeDiscord({ token: TOKEN, bot: BOT, guilds: [GUILD] });
    fake.disallowedIntents = 32768;
    const recorder = createTestAccountContext({
      channel: "discord",
      accountId: "default",
      config: { token: TOKEN, apiRoot: fake.apiRoot },
    });
    const runtime = await createDiscordAdapter().start(recorder.context);
    running.push({ runtime, recorder });
    const end = await runtime.ended;
    expect(end).toMatchObject({
      failed: true,
      error: expect.stringMatching(/Message Content Intent/),
    });
    expect(recorder.status().lastError).toMatch(/4014/);
  });

  it("ends failed with 'token rejected' when the Gateway closes 4004", async () => {
    fake = await startFakeDiscord({ token: TOKEN, bot: BOT, guilds: [GUILD] });
    const recorder = createTestAccountContext({
      channel: "discord",
      accountId: "default",
      config: { token: TOKEN, apiRoot: fake.apiRoot },
    });
    const runtime = await createDiscordAdapter().start(recorder.context);
    running.push({ runtime, recorder });
    await fake.waitForReady();
    fake.closeSessions(4004);
    const end = await runtime.ended;
    expect(end).toMatchObject({
      failed: true,
      error: expect.stringMatching(/^token rejected.*4004/),
    });
  });
});
