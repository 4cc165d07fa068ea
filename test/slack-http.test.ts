// Slack's http mode end to end: the account's Events API webhook is served on the gateway's own
// HTTP port; the fake plays Slack's side (signed posts, url_verification, retries with
// X-Slack-Retry-Num). Unsigned, wrongly signed and stale requests are refused with 401 and run nothing.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventCallback, postSlackEvent } from "./helpers/fake-slack.js";
import type { GatewaySandbox } from "./helpers/gateway-sandbox.js";
import {
  HTTP_BOT,
  type SlackGateway,
  slackMessage,
  startSlackGateway,
  waitForPost,
} from "./helpers/slack-gateway.js";

const SECRET = "signing-secret-1";

let setup: SlackGateway | undefined;
afterEach(async () => {
  await setup?.box.close();
  await setup?.slack.close();
  setup = undefined;
});

function journalText(box: GatewaySandbox): string {
  const path = join(box.stateDir, "channels", "inbound-journal.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

async function startHttp(): Promise<{ url: string } & SlackGateway> {
  setup = await startSlackGateway({
    slackConfig: (apiUrl) => ({
      accounts: {
        work: {
          mode: "http",
          botToken: HTTP_BOT.botToken,
          signingSecret: SECRET,
          webhookPath: "/slack/work/events",
          apiUrl,
          dmPolicy: "open",
          allowFrom: ["*"],
        },
      },
    }),
    waitFor: [],
  });
  const url = `http://127.0.0.1:${setup.box.gw.port}/slack/work/events`;
  // The account registers its webhook once auth.test answered: poll until it is no longer 404.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = await postSlackEvent({
      url,
      body: { type: "url_verification", challenge: "up" },
      secret: SECRET,
    });
    if (probe.status === 200) break;
    if (Date.now() > deadline) throw new Error("webhook never came up");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, ...setup };
}

describe("Slack through the gateway (http mode)", () => {
  it("answers url_verification with the challenge, only when signed", async () => {
    const { url } = await startHttp();
    const body = { type: "url_verification", challenge: "ch-42" };
    const answer = await postSlackEvent({ url, body, secret: SECRET });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ challenge: "ch-42" });
    expect((await postSlackEvent({ url, body, secret: "wrong" })).status).toBe(401);
  });

  it("refuses unsigned, wrongly signed, tampered and stale posts with 401 and runs nothing", async () => {
    const { url, box, slack } = await startHttp();
    const body = eventCallback({
      event: slackMessage({
        channel: "DX1",
        channelType: "im",
        text: "evil",
        ts: "1700000100.000100",
      }),
    });
    const text = JSON.stringify(body);
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      await postSlackEvent({ url, body, signature: "" }),
      await postSlackEvent({ url, body, secret: "other-secret" }),
      await postSlackEvent({ url, body, signature: "v0=00" }),
      await postSlackEvent({ url, body: `${text} `, signature: undefined, secret: undefined }),
      await postSlackEvent({ url, body, secret: SECRET, timestampSeconds: now - 10 * 60 }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(journalText(box)).not.toContain("1700000100.000100");
    expect(box.fake.chatRequests).toHaveLength(0);
    expect(slack.callsOf("chat.postMessage")).toHaveLength(0);
  });

  it("takes a signed event (200 once journaled), replies with the bot token, and a retry is not run again", async () => {
    const { url, box, slack } = await startHttp();
    box.fake.text("hello from **http**");
    const body = eventCallback({
      eventId: "EvHttp1",
      event: slackMessage({
        channel: "DDAN1",
        channelType: "im",
        user: "UDAN",
        text: "hi",
        ts: "1700000110.000100",
      }),
    });
    const first = await postSlackEvent({ url, body, secret: SECRET });
    expect(first.status).toBe(200);
    expect(journalText(box)).toContain("1700000110.000100");
    const retry = await postSlackEvent({ url, body, secret: SECRET, retryNum: 1 });
    expect(retry.status).toBe(200);
    const reply = await waitForPost(slack, "DDAN1");
    expect(reply.token).toBe(HTTP_BOT.botToken);
    expect(reply.params.text).toBe("hello from *http*");
    expect(box.fake.chatRequests).toHaveLength(1);
    const entry = box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({ lastChannel: "slack", lastAccountId: "work", lastTo: "UDAN" });
  });
});
