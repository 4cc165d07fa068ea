// One Slack account on the real @slack/bolt against the fake Slack, with a recording context:
// every send failure as a value (rate limit with Retry-After, 5xx, Slack's refusals, no answer),
// uploads through Slack's flow, inbound images inlined from url_private, the receive → ack order, refused tokens at start naming the token,
// and a dropped Socket Mode connection ending the run (the host restarts it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/channels/slack/index.js";
import type { ChannelAccountRuntime, ChannelInbound } from "../src/channels/types.js";
import {
  createTestAccountContext,
  makeStateDir,
  removeStateDir,
} from "./helpers/channel-account-context.js";
import { type FakeSlack, startFakeSlack } from "./helpers/fake-slack.js";
import { BOT, slackMessage } from "./helpers/slack-gateway.js";

let slack: FakeSlack | undefined;
const runtimes: ChannelAccountRuntime[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.stop()));
  await slack?.close();
  slack = undefined;
  for (const dir of dirs.splice(0)) removeStateDir(dir);
});

async function start(config: Record<string, unknown> = {}) {
  slack = await startFakeSlack();
  slack.addBot(BOT);
  const stateDir = makeStateDir();
  dirs.push(stateDir);
  const recorder = createTestAccountContext({
    channel: "slack",
    accountId: "default",
    config: { botToken: BOT.botToken, appToken: BOT.appToken, apiUrl: slack.apiUrl, ...config },
    stateDir,
  });
  const runtime = await createSlackAdapter().start(recorder.context);
  runtimes.push(runtime);
  await slack.waitForSocket(BOT.appToken!);
  return { runtime, recorder, slack };
}

const toChannel = (text: string) => ({
  target: { accountId: "default", peer: { kind: "channel" as const, id: "C1" } },
  text,
});

describe("Slack account", () => {
  it("returns every send failure as a value saying whether a retry is safe", async () => {
    const { runtime, slack } = await start({ timeoutSeconds: 0.5 });
    slack.failNext({ method: "chat.postMessage", kind: "ratelimited", retryAfterSeconds: 7 });
    expect(await runtime.send(toChannel("a"))).toEqual({
      ok: false,
      failure: expect.objectContaining({
        retryable: true,
        retryAfterMs: 7000,
        code: "ratelimited",
      }),
    });
    slack.failNext({ method: "chat.postMessage", kind: "status", status: 503 });
    expect(await runtime.send(toChannel("b"))).toMatchObject({
      ok: false,
      failure: { retryable: true, code: "http_503" },
    });
    for (const error of ["not_in_channel", "channel_not_found", "invalid_auth"]) {
      slack.failNext({ method: "chat.postMessage", kind: "error", error });
      expect(await runtime.send(toChannel("c"))).toMatchObject({
        ok: false,
        failure: { retryable: false, code: error },
      });
    }
    slack.failNext({ method: "chat.postMessage", kind: "error", error: "ratelimited" });
    expect(await runtime.send(toChannel("d"))).toMatchObject({
      ok: false,
      failure: { retryable: true },
    });
    slack.failNext({ method: "chat.postMessage", kind: "hang" });
    const hung = await runtime.send(toChannel("e"));
    expect(hung).toMatchObject({ ok: false, failure: { retryable: false, uncertain: true } });
    const sent = await runtime.send(toChannel("fine"));
    expect(sent).toMatchObject({ ok: true });
  });

  it("uploads a file through getUploadURLExternal, the upload URL and completeUploadExternal", async () => {
    const { runtime, slack } = await start();
    const dir = makeStateDir();
    dirs.push(dir);
    const path = join(dir, "report.txt");
    writeFileSync(path, "quarterly numbers");
    const result = await runtime.send({
      target: {
        accountId: "default",
        peer: { kind: "channel", id: "C1" },
        threadId: "1700000001.000100",
      },
      text: "see attached",
      media: [{ path, caption: "the **report**" }],
    });
    expect(result).toMatchObject({ ok: true });
    const slot = slack.callsOf("files.getUploadURLExternal")[0];
    expect(slot?.params).toMatchObject({ filename: "report.txt", length: "17" });
    const complete = slack.callsOf("files.completeUploadExternal")[0];
    expect(complete?.params).toMatchObject({
      channel_id: "C1",
      thread_ts: "1700000001.000100",
      initial_comment: "the *report*",
    });
    const fileId = (complete!.params.files as Array<{ id: string }>)[0]!.id;
    expect(slack.uploads.get(fileId)?.toString()).toBe("quarterly numbers");
    expect(slack.callsOf("chat.postMessage")[0]?.params).toMatchObject({
      text: "see attached",
      thread_ts: "1700000001.000100",
    });
  });

  it("acknowledges an envelope only after receive resolved; a receive that fails leaves it unacked", async () => {
    const { recorder, slack } = await start();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inReceive = new Promise<void>((resolve) => {
      entered = resolve;
    });
    recorder.onReceive = () => {
      entered();
      return held;
    };
    const event = slackMessage({
      channel: "DALICE1",
      channelType: "im",
      text: "hold",
      ts: "1700000200.000100",
    });
    const envelope = slack.sendEnvelope(BOT.appToken!, { event });
    await inReceive;
    expect(slack.acks).not.toContain(envelope);
    release();
    await slack.waitForAck(envelope);
    const [inbound] = (await recorder.waitForReceived(1)) as ChannelInbound[];
    expect(inbound).toMatchObject({
      channel: "slack",
      messageId: "1700000200.000100",
      peer: { kind: "direct", id: "UALICE" },
      teamId: "T1",
    });
    expect(recorder.syncs.length).toBeGreaterThan(0);
  });

  it("inlines a message's images from url_private with the bot token, and sends the token nowhere else", async () => {
    const { recorder, slack } = await start();
    const png = Buffer.from("png-bytes");
    const mine = slack.addFile({
      name: "cat.png",
      bytes: png,
      contentType: "image/png",
      botToken: BOT.botToken,
    });
    const notMine = slack.addFile({
      name: "dog.png",
      bytes: png,
      contentType: "image/png",
      botToken: "xoxb-other",
    });
    const elsewhere = "http://files.example.invalid/x.png";
    const file = (id: string, name: string, url: string, mimetype = "image/png") => ({
      id,
      name,
      mimetype,
      size: png.length,
      url_private: url,
    });
    const event = slackMessage({
      channel: "DALICE1",
      channelType: "im",
      text: "look",
      ts: "1700000300.000100",
      extra: {
        files: [
          file("F1", "cat.png", mine),
          file("F2", "dog.png", notMine),
          file("F3", "x.png", elsewhere),
          file("F4", "notes.txt", mine.replace("cat.png", "notes.txt"), "text/plain"),
        ],
      },
    });
    slack.sendEnvelope(BOT.appToken!, { event });
    const [inbound] = (await recorder.waitForReceived(1)) as ChannelInbound[];
    const media = inbound!.media;
    expect(media.map((m) => [m.fileName, m.kind, m.data])).toEqual([
      ["cat.png", "image", png.toString("base64")],
      // Slack's sign-in page (a token without access) is not taken for the image.
      ["dog.png", "image", undefined],
      ["x.png", "image", undefined],
      ["notes.txt", "document", undefined],
    ]);
    expect(media[1]!.url).toBe(notMine);
    // Only the two images on Slack's (here: the fake's) host were fetched, each with the bot token;
    // the other host and the document were never requested.
    expect(slack.fileRequests).toEqual([
      { path: new URL(mine).pathname, token: BOT.botToken },
      { path: new URL(notMine).pathname, token: BOT.botToken },
    ]);
  });

  it("fails the start naming the refused token", async () => {
    slack = await startFakeSlack();
    slack.addBot(BOT);
    for (const [config, named] of [
      [{ botToken: "xoxb-wrong", appToken: BOT.appToken }, "botToken"],
      [{ botToken: BOT.botToken, appToken: "xapp-wrong" }, "appToken"],
    ] as const) {
      const recorder = createTestAccountContext({
        channel: "slack",
        accountId: "default",
        config: { ...config, apiUrl: slack.apiUrl },
      });
      dirs.push(recorder.context.stateDir);
      await expect(createSlackAdapter().start(recorder.context)).rejects.toThrow(named);
      expect(recorder.status().lastError).toContain("invalid_auth");
      expect(recorder.status().connected).toBe(false);
    }
  });

  it("ends the run (failed) when Slack drops the Socket Mode connection", async () => {
    const { runtime, slack } = await start();
    slack.dropSocket(BOT.appToken!);
    expect(await runtime.ended).toEqual({
      failed: true,
      error: "slack: the Socket Mode connection closed",
    });
  });
});
