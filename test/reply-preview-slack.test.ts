// Reply preview streaming over the fake Slack through the real gateway and the fake model: with
// `streaming: "partial"` a long reply appears as one message updated in place (`chat.update`) as the
// model writes, ending as the exact reply (one chat.postMessage); off by default: nothing updated.
import { afterEach, describe, expect, it } from "vitest";
import {
  BOT,
  postsTo,
  type SlackGateway,
  slackMessage,
  socketAccount,
  startSlackGateway,
} from "./helpers/slack-gateway.js";

const REPLY =
  "Here is a longer answer that the model writes in pieces, so the preview shows it growing.";

let setup: SlackGateway | undefined;
afterEach(async () => {
  await setup?.box.close();
  await setup?.slack.close();
  setup = undefined;
});

async function start(streaming?: string) {
  const open = { dmPolicy: "open", allowFrom: ["*"], ...(streaming ? { streaming } : {}) };
  setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl, open) });
  return setup;
}

async function dm(slack: SlackGateway["slack"], text: string, ts: string) {
  const id = slack.sendEnvelope(BOT.appToken!, {
    event: slackMessage({ channel: "DALICE1", channelType: "im", text, ts }),
  });
  await slack.waitForAck(id);
}

describe("reply preview streaming over Slack", () => {
  it("partial: one posted message, updated as the reply grows, ends as the exact reply", async () => {
    const { box, slack } = await start("partial");
    box.fake.text(REPLY, { chunks: 12, delayMs: 150 });
    await dm(slack, "tell me", "1700000101.000100");
    let updates = slack.callsOf("chat.update");
    while (!updates.some((c) => c.params.text === REPLY)) {
      await slack.waitForCalls("chat.update", updates.length + 1);
      updates = slack.callsOf("chat.update");
    }
    const posted = postsTo(slack, "DALICE1");
    expect(posted).toHaveLength(1);
    expect(new Set(updates.map((c) => String(c.params.ts))).size).toBe(1);
    const texts = [String(posted[0]!.params.text), ...updates.map((c) => String(c.params.text))];
    for (const text of texts) expect(REPLY.startsWith(text.replace(/…$/, ""))).toBe(true);
    expect(updates.every((c) => c.params.channel === "DALICE1")).toBe(true);
  });

  it("off by default: the reply is one chat.postMessage and nothing is updated", async () => {
    const { box, slack } = await start();
    box.fake.text(REPLY, { chunks: 6, delayMs: 50 });
    await dm(slack, "tell me", "1700000102.000100");
    await slack.waitForCalls("chat.postMessage", 1);
    expect(postsTo(slack, "DALICE1").map((c) => c.params.text)).toEqual([REPLY]);
    expect(slack.callsOf("chat.update")).toHaveLength(0);
  });
});
