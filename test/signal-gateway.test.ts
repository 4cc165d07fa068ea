// Signal end to end through the real gateway (port 0, temp state, the built-in adapter loaders),
// the fake signal-cli HTTP daemon and the fake model: DM pairing approved with the CLI, a group's
// mention gate and its binding, a second number bound to another agent through its own daemon,
// quotes both ways, an attachment in and out, the event stream dropping and resuming without a
// duplicate, and `channels status --probe`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  dmEnvelope,
  type FakeSignalCall,
  type FakeSignalCli,
  groupEnvelope,
  startFakeSignalCli,
} from "./helpers/fake-signal-cli.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const BOT = "+15550000001";
const OPS_BOT = "+15550000002";
const ALICE = "+15557654321";
const BOB = "+15551112222";
const GROUP = "Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=";

let box: GatewaySandbox | undefined;
const fakes: FakeSignalCli[] = [];
afterEach(async () => {
  await box?.close();
  for (const fake of fakes.splice(0)) await fake.close();
  box = undefined;
});

async function start(params: { main?: Record<string, unknown>; mainModel?: string } = {}) {
  const signal = await startFakeSignalCli();
  const ops = await startFakeSignalCli();
  fakes.push(signal, ops);
  const workspace = makeTempDir("pincer-signal-main-");
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        signal: {
          autoStart: false,
          accounts: {
            default: { account: BOT, httpUrl: signal.url, ...params.main },
            ops: { account: OPS_BOT, httpUrl: ops.url, dmPolicy: "open", allowFrom: ["*"] },
          },
        },
      } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main", workspace, ...(params.mainModel ? { model: params.mainModel } : {}) },
          { id: "team", workspace: makeTempDir("pincer-signal-team-") },
          { id: "work", workspace: makeTempDir("pincer-signal-work-") },
        ],
      },
      bindings: [
        { agentId: "team", match: { channel: "signal", peer: { kind: "group", id: GROUP } } },
        { agentId: "work", match: { channel: "signal", accountId: "ops" } },
      ],
    }),
  });
  await signal.waitForStreams(1);
  await ops.waitForStreams(1);
  return { sandbox: box, signal, ops, workspace };
}

/** The `nth` (1-based) send to a DM recipient or a group, waiting for it. */
function waitForSend(fake: FakeSignalCli, to: { recipient?: string; groupId?: string }, nth = 1) {
  const matches = (c: FakeSignalCall) =>
    c.method === "send" &&
    (to.groupId
      ? c.params.groupId === to.groupId
      : (c.params.recipient as string[] | undefined)?.[0] === to.recipient);
  return fake.waitForCall((c) => matches(c) && fake.calls.filter(matches).indexOf(c) === nth - 1);
}

function transcript(sandbox: GatewaySandbox, agentId: string, sessionKey: string): string {
  const read = sandbox.gw.core.runtime.stores.forAgent(agentId).readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}

const cli = (sandbox: GatewaySandbox, argv: string[]) => createCliSandbox(sandbox.env).run(argv);

describe("Signal through the gateway", () => {
  it("pairs an unknown DM sender, then answers on the same number with Signal text styles", async () => {
    const { sandbox, signal } = await start();
    signal.push(dmEnvelope({ from: ALICE, text: "hello?" }));
    const codeCall = await waitForSend(signal, { recipient: ALICE });
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codeCall.params.message))?.[1];
    expect(code).toBeDefined();
    expect(codeCall.params.account).toBe(BOT);
    expect(sandbox.fake.chatRequests).toHaveLength(0);

    const approved = await cli(sandbox, ["pairing", "approve", "signal", code!]);
    expect(approved.code).toBe(0);
    sandbox.fake.text("Welcome **aboard**, `ok`");
    const dm = dmEnvelope({ from: ALICE, text: "now?" });
    signal.push(dm);
    const reply = await waitForSend(signal, { recipient: ALICE }, 2);
    expect(reply.params).toMatchObject({
      account: BOT,
      message: "Welcome aboard, ok",
      textStyle: ["8:6:BOLD", "16:2:MONOSPACE"],
    });
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    const entry = sandbox.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({ lastChannel: "signal", lastTo: ALICE, lastAccountId: "default" });
    expect(transcript(sandbox, "main", "agent:main:main")).toContain("now?");
  });

  it("keeps an unmentioned group message as context and runs the group's agent on a mention", async () => {
    const { sandbox, signal } = await start({ main: { groups: { [GROUP]: {} } } });
    const quietId = signal.push(
      groupEnvelope({ groupId: GROUP, from: BOB, name: "Bob", text: "lunch at noon" }),
    );
    await signal.waitForStreams(1);
    // A typing-only envelope and a story change nothing either.
    signal.push({
      source: BOB,
      sourceNumber: BOB,
      timestamp: 5,
      typingMessage: { action: "STARTED" },
    });
    signal.push({
      source: BOB,
      sourceNumber: BOB,
      timestamp: 6,
      storyMessage: { allowsReplies: true },
    });
    expect(quietId).toBe(1);
    sandbox.fake.text("Noon works");
    signal.push(
      groupEnvelope({
        groupId: GROUP,
        from: ALICE,
        text: "\uFFFC ok?",
        data: { mentions: [{ name: "Pincer", number: BOT, uuid: "u-bot", start: 0, length: 1 }] },
      }),
    );
    const reply = await waitForSend(signal, { groupId: GROUP });
    expect(reply.params.message).toBe("Noon works");
    expect(reply.params.recipient).toBeUndefined();
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("lunch at noon");
    expect(prompt).toContain("@Pincer ok?");
    expect(transcript(sandbox, "team", `agent:team:signal:group:${GROUP}`)).toContain("Noon works");
    expect(signal.callsOf("send")).toHaveLength(1);
  });

  it("routes the second number to its agent, answered through its own daemon", async () => {
    const { sandbox, signal, ops } = await start();
    sandbox.fake.text("from work");
    ops.push(dmEnvelope({ from: BOB, text: "disk full?" }), OPS_BOT);
    const reply = await waitForSend(ops, { recipient: BOB });
    expect(reply.params).toMatchObject({ account: OPS_BOT, message: "from work" });
    expect(ops.streams[0]?.account).toBe(OPS_BOT);
    expect(transcript(sandbox, "work", "agent:work:main")).toContain("disk full?");
    expect(signal.callsOf("send")).toHaveLength(0);
  });

  it("puts a quote into the reply block and quotes the message it answers", async () => {
    const { sandbox, signal } = await start({
      main: { dmPolicy: "open", allowFrom: ["*"], replyToMode: "all" },
    });
    sandbox.fake.text("It said 42.");
    const dm = dmEnvelope({
      from: ALICE,
      text: "what did you mean?",
      data: {
        quote: { id: 1699999999000, author: BOT, authorNumber: BOT, text: "the answer is 42" },
      },
    });
    signal.push(dm);
    const reply = await waitForSend(signal, { recipient: ALICE });
    expect(reply.params).toMatchObject({
      message: "It said 42.",
      quoteTimestamp: dm.timestamp,
      quoteAuthor: ALICE,
    });
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("the answer is 42");
    expect(prompt).toContain("what did you mean?");
  });

  it("downloads an inbound image for the model and sends a workspace file as an attachment", async () => {
    const { sandbox, signal, workspace } = await start({
      main: { dmPolicy: "open", allowFrom: ["*"] },
      mainModel: "fake/vision",
    });
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    signal.addAttachment("att-7", png);
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "chart.png"), Buffer.alloc(64, 7));
    sandbox.fake.text("Here:\nMEDIA:./chart.png");
    signal.push(
      dmEnvelope({
        from: ALICE,
        text: "look",
        data: {
          attachments: [
            { id: "att-7", contentType: "image/png", filename: "in.png", size: png.length },
          ],
        },
      }),
    );
    const withMedia = await signal.waitForCall(
      (c) => c.method === "send" && Array.isArray(c.params.attachments),
    );
    expect(withMedia.params.attachments).toEqual([
      `data:image/png;filename=chart.png;base64,${Buffer.alloc(64, 7).toString("base64")}`,
    ]);
    const download = signal.callsOf("getAttachment")[0];
    expect(download?.params).toMatchObject({ id: "att-7", recipient: ALICE, account: BOT });
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain(png.toString("base64"));
    expect(prompt).toContain("look");
  });

  it("reconnects a dropped event stream and runs a resent message only once", async () => {
    const { sandbox, signal } = await start({ main: { dmPolicy: "open", allowFrom: ["*"] } });
    sandbox.fake.text("reply one");
    signal.push(dmEnvelope({ from: ALICE, text: "msg-one" }));
    await waitForSend(signal, { recipient: ALICE });
    // The daemon restarts: the stream drops and the reconnect gets every kept event again.
    signal.forgetEventIds();
    signal.dropStreams();
    await signal.waitForStreams(2);
    expect(signal.streams[1]?.lastEventId).toBe("1");
    sandbox.fake.text("reply two");
    signal.push(dmEnvelope({ from: ALICE, text: "msg-two" }));
    const second = await waitForSend(signal, { recipient: ALICE }, 2);
    expect(second.params.message).toBe("reply two");
    expect(sandbox.fake.chatRequests).toHaveLength(2);
    const text = transcript(sandbox, "main", "agent:main:main");
    expect(text.split("msg-one").length - 1).toBe(1);
    expect(signal.callsOf("send")).toHaveLength(2);
  });

  it("`channels status --probe` checks the daemon and names its version; `message send` reaches a group", async () => {
    const { sandbox, signal } = await start();
    const status = await cli(sandbox, [
      "channels",
      "status",
      "--probe",
      "--json",
      "--url",
      sandbox.gw.url,
    ]);
    const accounts = (JSON.parse(status.stdout) as Loose).channelAccounts.signal as Loose[];
    const main = accounts.find((a) => a.accountId === "default");
    expect(main?.probe).toMatchObject({
      ok: true,
      identity: { id: BOT, name: "signal-cli 0.13.99-fake", username: BOT },
    });
    expect(main?.connected).toBe(true);
    const sent = await cli(sandbox, [
      "message",
      "send",
      "--channel",
      "signal",
      "--to",
      `group:${GROUP}`,
      "-m",
      "~~old~~ news",
      "--url",
      sandbox.gw.url,
      "--json",
    ]);
    expect(sent.stderr).toBe("");
    const call = await waitForSend(signal, { groupId: GROUP });
    expect(call.params).toMatchObject({ message: "old news", textStyle: ["0:3:STRIKETHROUGH"] });
  });
});
