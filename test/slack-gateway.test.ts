// Slack end to end: the real gateway runs the real @slack/bolt against the fake Slack (Web API +
// Socket Mode), the fake model answers. DMs (pairing, then replies), channel mentions and threads,
// acks after the message is journaled, retries deduped, bot and service messages skipped,
// send failures as values, `message send`, `channels status --probe`, http mode signatures.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import type { GatewaySandbox, Loose } from "./helpers/gateway-sandbox.js";
import {
  BOT,
  type SlackGateway,
  slackMessage,
  socketAccount,
  startSlackGateway,
  waitForPost,
} from "./helpers/slack-gateway.js";

let setup: SlackGateway | undefined;
afterEach(async () => {
  await setup?.box.close();
  await setup?.slack.close();
  setup = undefined;
});

const cli = (box: GatewaySandbox, argv: string[]) =>
  createCliSandbox(box.env).run([...argv, "--url", box.gw.url]);

function journalText(box: GatewaySandbox): string {
  const path = join(box.stateDir, "channels", "inbound-journal.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

describe("Slack through the gateway (socket mode)", () => {
  it("answers an open DM in the DM channel with mrkdwn, acking after the journal has it", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) => socketAccount(apiUrl, { dmPolicy: "open", allowFrom: ["*"] }),
    });
    const { box, slack } = setup;
    box.fake.text("Hello **Alice**, see [docs](https://x.dev)");
    const envelope = slack.sendEnvelope(BOT.appToken!, {
      event: slackMessage({
        channel: "DALICE1",
        channelType: "im",
        text: "hi there",
        ts: "1700000001.000100",
      }),
    });
    await slack.waitForAck(envelope);
    expect(journalText(box)).toContain("1700000001.000100");
    const reply = await waitForPost(slack, "DALICE1");
    expect(reply.token).toBe(BOT.botToken);
    expect(reply.params).toMatchObject({ text: "Hello *Alice*, see <https://x.dev|docs>" });
    expect(reply.params.thread_ts).toBeUndefined();
    expect(JSON.stringify(box.fake.chatRequests[0]!.body)).toContain("hi there");
    const entry = box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({ lastChannel: "slack", lastTo: "UALICE" });
  });
});
