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
import { type FakeDiscord, type FakeGuild, startFakeDiscord } from "./helpers/fake-discord.js";
import { discordMessage } from "./helpers/fake-discord-payloads.js";

const TOKEN = "discord-test-token";
const BOT = { id: "1000000000000000001", username: "pincer", bot: true };
const BOB = { id: "2000000000000000002", username: "bob", global_name: "Bob" };
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
});
