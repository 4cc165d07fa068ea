// Slack end to end: the real gateway runs the real @slack/bolt against the fake Slack (Web API +
// Socket Mode), the fake model answers. DMs (pairing, then replies), channel mentions and threads,
// acks after the message is journaled, retries deduped, bot and service messages skipped,
// group DMs gated by dm.groupEnabled, `message send`, `channels status --probe`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import type { GatewaySandbox, Loose } from "./helpers/gateway-sandbox.js";
import {
  BOT,
  postsTo,
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

const open = { dmPolicy: "open", allowFrom: ["*"] };

/** Sends an event over the main bot's socket and waits for its ack. */
async function say(slack: SlackGateway["slack"], event: Record<string, unknown>, eventId?: string) {
  const envelope = slack.sendEnvelope(BOT.appToken!, { event, ...(eventId ? { eventId } : {}) });
  await slack.waitForAck(envelope);
  return envelope;
}

describe("Slack through the gateway (socket mode)", () => {
  it("answers an open DM in the DM channel with mrkdwn, acking after the journal has it", async () => {
    setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl, open) });
    const { box, slack } = setup;
    box.fake.text("Hello **Alice**, see [docs](https://x.dev)");
    await say(
      slack,
      slackMessage({
        channel: "DALICE1",
        channelType: "im",
        text: "hi there",
        ts: "1700000001.000100",
      }),
    );
    expect(journalText(box)).toContain("1700000001.000100");
    const reply = await waitForPost(slack, "DALICE1");
    expect(reply.token).toBe(BOT.botToken);
    expect(reply.params).toMatchObject({ text: "Hello *Alice*, see <https://x.dev|docs>" });
    expect(reply.params.thread_ts).toBeUndefined();
    expect(JSON.stringify(box.fake.chatRequests[0]!.body)).toContain("hi there");
    const entry = box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({ lastChannel: "slack", lastTo: "UALICE" });
  });

  it("pairs an unknown DM sender; after `pairing approve slack <code>` the DM is answered", async () => {
    setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl) });
    const { box, slack } = setup;
    await say(
      slack,
      slackMessage({
        channel: "DBOB1",
        channelType: "im",
        user: "UBOB",
        text: "hello?",
        ts: "1700000002.000100",
      }),
    );
    const codeCall = await waitForPost(slack, "DBOB1");
    const code = /([A-Z2-9]{8})/.exec(String(codeCall.params.text))?.[1];
    expect(code).toBeDefined();
    expect(box.fake.chatRequests).toHaveLength(0);
    const approved = await createCliSandbox(box.env).run(["pairing", "approve", "slack", code!]);
    expect(approved.code).toBe(0);
    box.fake.text("welcome");
    await say(
      slack,
      slackMessage({
        channel: "DBOB1",
        channelType: "im",
        user: "UBOB",
        text: "now?",
        ts: "1700000003.000100",
      }),
    );
    const reply = await waitForPost(slack, "DBOB1", 2);
    expect(reply.params.text).toBe("welcome");
    expect(box.fake.chatRequests).toHaveLength(1);
  });

  it("answers a channel mention once (message + app_mention, a retried envelope), in the thread it came from", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) => socketAccount(apiUrl, { groupPolicy: "open" }),
    });
    const { box, slack } = setup;
    slack.addConversation({ id: "C1", name: "general" });
    box.fake.text("on it");
    const text = "<@UBOT1> deploy please";
    const message = slackMessage({
      channel: "C1",
      channelType: "channel",
      text,
      ts: "1700000010.000100",
      threadTs: "1700000009.000100",
    });
    await say(slack, message, "EvMsg1");
    await say(slack, { ...message, type: "app_mention", channel_type: undefined }, "EvMention1");
    // Slack's retry of the first envelope: same event id, acknowledged at once, not run.
    const retried = slack.sendEnvelope(BOT.appToken!, {
      event: message,
      eventId: "EvMsg1",
      retryAttempt: 1,
    });
    await slack.waitForAck(retried);
    const reply = await waitForPost(slack, "C1");
    expect(reply.params).toMatchObject({ text: "on it", thread_ts: "1700000009.000100" });
    const key = "agent:main:slack:channel:c1:thread:1700000009.000100";
    expect(box.gw.core.runtime.stores.forAgent("main").get(key)).toBeDefined();
    expect(JSON.stringify(box.fake.chatRequests[0]!.body)).toContain("deploy please");
    // Unmentioned channel chatter, a bot post and an edit are acknowledged and run nothing.
    await say(
      slack,
      slackMessage({
        channel: "C1",
        channelType: "channel",
        text: "lunch?",
        ts: "1700000011.000100",
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "C1",
        channelType: "channel",
        text: "<@UBOT1> beep",
        ts: "1700000012.000100",
        extra: { bot_id: "BOTHER", subtype: "bot_message" },
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "C1",
        channelType: "channel",
        text: "<@UBOT1> edited",
        ts: "1700000013.000100",
        extra: { subtype: "message_changed" },
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "C1",
        channelType: "channel",
        user: BOT.userId,
        text: "<@UBOT1> me",
        ts: "1700000014.000100",
      }),
    );
    expect(box.fake.chatRequests).toHaveLength(1);
    expect(postsTo(slack, "C1")).toHaveLength(1);
    expect(journalText(box)).not.toContain("1700000012.000100");
  });

  it("replies under a top-level channel message only when replyToMode asks for it", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) => socketAccount(apiUrl, { groupPolicy: "open", replyToMode: "all" }),
    });
    const { box, slack } = setup;
    box.fake.text("threaded");
    await say(
      slack,
      slackMessage({
        channel: "C2",
        channelType: "channel",
        text: "<@UBOT1> hi",
        ts: "1700000020.000100",
      }),
    );
    const reply = await waitForPost(slack, "C2");
    expect(reply.params).toMatchObject({ text: "threaded", thread_ts: "1700000020.000100" });
    expect(
      box.gw.core.runtime.stores.forAgent("main").get("agent:main:slack:channel:c2"),
    ).toBeDefined();
  });

  it("replyToMode first threads only the first part under the message; textChunkLimit splits", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) =>
        socketAccount(apiUrl, { groupPolicy: "open", replyToMode: "first", textChunkLimit: 20 }),
    });
    const { box, slack } = setup;
    box.fake.text("first paragraph here\n\nsecond paragraph");
    await say(
      slack,
      slackMessage({
        channel: "C3",
        channelType: "channel",
        text: "<@UBOT1> go",
        ts: "1700000025.000100",
      }),
    );
    const second = await waitForPost(slack, "C3", 2);
    const first = (await waitForPost(slack, "C3", 1)).params;
    expect(first).toMatchObject({ text: "first paragraph here", thread_ts: "1700000025.000100" });
    expect(second.params.text).toBe("second paragraph");
    expect(second.params.thread_ts).toBeUndefined();
  });

  it("reconnects after Slack drops the Socket Mode connection (the host restarts the account)", async () => {
    setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl, open) });
    const { box, slack } = setup;
    const opens = slack.callsOf("apps.connections.open").length;
    slack.dropSocket(BOT.appToken!);
    await slack.waitForSocket(BOT.appToken!);
    expect(slack.callsOf("apps.connections.open").length).toBe(opens + 1);
    box.fake.text("back again");
    await say(
      slack,
      slackMessage({
        channel: "DALICE1",
        channelType: "im",
        text: "there?",
        ts: "1700000035.000100",
      }),
    );
    expect((await waitForPost(slack, "DALICE1")).params.text).toBe("back again");
  });

  it("skips a malformed event (acked, lastError names the field) and carries on", async () => {
    setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl, open) });
    const { box, slack } = setup;
    await say(slack, {
      type: "message",
      channel_type: "im",
      user: "UALICE",
      text: "no channel",
      ts: "1700000030.000100",
    });
    const status = await cli(box, ["channels", "status", "--json"]);
    const account = ((JSON.parse(status.stdout) as Loose).channelAccounts.slack as Loose[])[0];
    expect(account?.lastError).toContain("event.channel");
    box.fake.text("still here");
    await say(
      slack,
      slackMessage({ channel: "DALICE1", channelType: "im", text: "ok?", ts: "1700000031.000100" }),
    );
    expect((await waitForPost(slack, "DALICE1")).params.text).toBe("still here");
  });

  it("drops group DMs unless dm.groupEnabled, and those not in dm.groupChannels", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) =>
        socketAccount(apiUrl, {
          groupPolicy: "open",
          dm: { groupEnabled: true, groupChannels: ["G2"] },
        }),
    });
    const { box, slack } = setup;
    slack.addConversation({ id: "G1", name: "mpdm-alice--bob-1", isMpim: true });
    box.fake.text("group hello");
    await say(
      slack,
      slackMessage({
        channel: "G1",
        channelType: "mpim",
        text: "<@UBOT1> hi",
        ts: "1700000040.000100",
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "G2",
        channelType: "mpim",
        text: "<@UBOT1> hi",
        ts: "1700000041.000100",
      }),
    );
    const reply = await waitForPost(slack, "G2");
    expect(reply.params.text).toBe("group hello");
    expect(postsTo(slack, "G1")).toHaveLength(0);
    expect(box.fake.chatRequests).toHaveLength(1);
    expect(
      box.gw.core.runtime.stores.forAgent("main").get("agent:main:slack:group:g2"),
    ).toBeDefined();
  });

  it("channels.<id|name>.{allow, requireMention} decide channel traffic; group DMs need dm.groupEnabled", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) =>
        socketAccount(apiUrl, {
          channels: { general: { allow: true, requireMention: false }, C7: { allow: false } },
        }),
    });
    const { box, slack } = setup;
    slack.addConversation({ id: "C1", name: "General" });
    slack.addConversation({ id: "G5", name: "mpdm-a--b-1", isMpim: true });
    box.fake.text("no mention needed");
    await say(
      slack,
      slackMessage({
        channel: "C7",
        channelType: "channel",
        text: "<@UBOT1> denied",
        ts: "1700000060.000100",
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "C8",
        channelType: "channel",
        text: "<@UBOT1> unlisted",
        ts: "1700000061.000100",
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "G5",
        channelType: "mpim",
        text: "<@UBOT1> group dm",
        ts: "1700000062.000100",
      }),
    );
    await say(
      slack,
      slackMessage({
        channel: "C1",
        channelType: "channel",
        text: "plain words",
        ts: "1700000063.000100",
      }),
    );
    const reply = await waitForPost(slack, "C1");
    expect(reply.params.text).toBe("no mention needed");
    expect(box.fake.chatRequests).toHaveLength(1);
    expect(JSON.stringify(box.fake.chatRequests[0]!.body)).toContain("plain words");
    for (const channel of ["C7", "C8", "G5"]) expect(postsTo(slack, channel)).toHaveLength(0);
  });

  it("`message send` reaches channel:<id> and a user's DM; `channels status --probe` runs auth.test", async () => {
    setup = await startSlackGateway({ slackConfig: (apiUrl) => socketAccount(apiUrl, open) });
    const { box, slack } = setup;
    const toChannel = await cli(box, [
      "message",
      "send",
      "--channel",
      "slack",
      "--to",
      "channel:C9",
      "-m",
      "**ping** <all>",
      "--json",
    ]);
    expect(toChannel.stderr).toBe("");
    expect((await waitForPost(slack, "C9")).params.text).toBe("*ping* &lt;all&gt;");
    const toUser = await cli(box, [
      "message",
      "send",
      "--channel",
      "slack",
      "--to",
      "user:UCAROL",
      "-m",
      "hi carol",
      "--json",
    ]);
    expect(toUser.stderr).toBe("");
    expect((await waitForPost(slack, "DUCAROL")).params.text).toBe("hi carol");
    expect(slack.callsOf("conversations.open")[0]?.params).toMatchObject({ users: "UCAROL" });
    const threaded = await cli(box, [
      "message",
      "send",
      "--channel",
      "slack",
      "--to",
      "channel:C9",
      "--thread-id",
      "1700000050.000100",
      "-m",
      "in thread",
      "--json",
    ]);
    expect(threaded.stderr).toBe("");
    expect((await waitForPost(slack, "C9", 2)).params).toMatchObject({
      text: "in thread",
      thread_ts: "1700000050.000100",
    });
    const status = await cli(box, ["channels", "status", "--probe", "--json"]);
    const account = ((JSON.parse(status.stdout) as Loose).channelAccounts.slack as Loose[])[0];
    expect(account?.probe).toMatchObject({
      ok: true,
      identity: { id: BOT.userId, username: BOT.user, name: `${BOT.user} (${BOT.team})` },
    });
    expect(account?.connected).toBe(true);
  });
});
