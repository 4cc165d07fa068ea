// Reply preview streaming over the fake Discord through the real gateway and the fake model: with
// `streaming: "partial"` a long reply appears as one message edited in place (PATCH) as the model
// writes, ending as the exact reply; with streaming off (the default) nothing is edited.
import { afterEach, describe, expect, it } from "vitest";
import {
  BOB,
  type DiscordGateway,
  startDiscordGateway,
  waitForPost,
} from "./helpers/discord-gateway.js";
import type { FakeDiscord } from "./helpers/fake-discord.js";
import { discordMessage } from "./helpers/fake-discord-payloads.js";

const BOT = { id: "1300000000000000001", username: "pincer", bot: true };
const DM_CHANNEL = "6300000000000000001";
const REPLY =
  "Here is a longer answer that the model writes in pieces, so the preview shows it growing.";

let running: DiscordGateway | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(streaming?: string) {
  running = await startDiscordGateway({
    bots: [{ accountId: "default", token: "discord-preview-token", bot: BOT }],
    channel: { dmPolicy: "open", allowFrom: ["*"], ...(streaming ? { streaming } : {}) },
  });
  return { sandbox: running.sandbox, fake: running.fakes.default! };
}

const edits = (fake: FakeDiscord) =>
  fake.calls.filter(
    (c) => c.method === "PATCH" && c.path.startsWith(`/channels/${DM_CHANNEL}/messages/`),
  );

const dm = (content: string) =>
  discordMessage({ author: BOB, channelId: DM_CHANNEL, channelType: 1, content });

describe("reply preview streaming over Discord", () => {
  it("partial: one message, edited as the reply grows, ends as the exact reply", async () => {
    const { sandbox, fake } = await start("partial");
    sandbox.fake.text(REPLY, { chunks: 12, delayMs: 150 });
    fake.dispatch("MESSAGE_CREATE", dm("tell me"));
    await fake.waitForCall((c) => c.method === "PATCH" && c.body.content === REPLY);
    const sent = fake.callsTo(`/channels/${DM_CHANNEL}/messages`);
    expect(sent).toHaveLength(1);
    expect(new Set(edits(fake).map((c) => c.path)).size).toBe(1);
    const texts = [
      String(sent[0]!.body.content),
      ...edits(fake).map((c) => String(c.body.content)),
    ];
    for (const text of texts) expect(REPLY.startsWith(text.replace(/…$/, ""))).toBe(true);
  });

  it("off by default: the reply is one message and nothing is edited", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake.text(REPLY, { chunks: 6, delayMs: 50 });
    fake.dispatch("MESSAGE_CREATE", dm("tell me"));
    expect((await waitForPost(fake, DM_CHANNEL)).body.content).toBe(REPLY);
    expect(edits(fake)).toHaveLength(0);
  });
});
