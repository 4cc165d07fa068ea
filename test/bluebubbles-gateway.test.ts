// BlueBubbles (iMessage) end to end: the real gateway serves each account's webhook on its own
// HTTP port, the fake BlueBubbles server plays the Mac (REST API + webhook posts), the fake model
// answers. Password refusal, DM pairing, a group chat's mention gate and binding, a second server
// bound to another agent, replies naming the message they answer, an attachment in and out, probe.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  type FakeBlueBubbles,
  type FakeBlueBubblesCall,
  newMessage,
  postWebhook,
  startFakeBlueBubbles,
} from "./helpers/fake-bluebubbles.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const PASSWORD = "bb-secret";
const OPS_PASSWORD = "bb-ops-secret";
const ALICE = "+15557654321";
const BOB = "bob@example.com";
const GROUP = "iMessage;+;chat493787022";

let box: GatewaySandbox | undefined;
const fakes: FakeBlueBubbles[] = [];
afterEach(async () => {
  await box?.close();
  for (const fake of fakes.splice(0)) await fake.close();
  box = undefined;
});

/** Polls until the account's webhook answers (an unauthenticated post: 401 from its handler). */
async function waitForWebhook(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(url, { method: "POST", body: "{}" });
    await res.text();
    if (res.status === 401) return;
    if (Date.now() > deadline) throw new Error(`webhook ${url} never came up`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function start(params: { mainModel?: string } = {}) {
  const bb = await startFakeBlueBubbles(PASSWORD);
  const ops = await startFakeBlueBubbles(OPS_PASSWORD);
  fakes.push(bb, ops);
  const workspace = makeTempDir("pincer-bb-work-");
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        bluebubbles: {
          accounts: {
            default: { serverUrl: bb.url, password: PASSWORD, groups: { [GROUP]: {} } },
            ops: { serverUrl: ops.url, password: OPS_PASSWORD, dmPolicy: "open", allowFrom: ["*"] },
          },
        },
      } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main" },
          {
            id: "team",
            workspace: makeTempDir("pincer-bb-team-"),
            groupChat: { mentionPatterns: ["\\bpincer\\b"] },
          },
          { id: "work", workspace, ...(params.mainModel ? { model: params.mainModel } : {}) },
        ],
      },
      bindings: [
        { agentId: "team", match: { channel: "bluebubbles", peer: { kind: "group", id: GROUP } } },
        { agentId: "work", match: { channel: "bluebubbles", accountId: "ops" } },
      ],
    }),
  });
  const base = `http://127.0.0.1:${box.gw.port}`;
  const hooks = { main: `${base}/bluebubbles-webhook`, ops: `${base}/bluebubbles-webhook/ops` };
  await waitForWebhook(hooks.main);
  await waitForWebhook(hooks.ops);
  return { sandbox: box, bb, ops, hooks, workspace };
}

const texts = (fake: FakeBlueBubbles, chatGuid: string) =>
  fake.callsOf("message/text").filter((c) => c.json?.chatGuid === chatGuid);
const waitForText = (fake: FakeBlueBubbles, chatGuid: string, nth = 1) =>
  fake.waitForCall((c: FakeBlueBubblesCall) => texts(fake, chatGuid).indexOf(c) === nth - 1);

function journal(sandbox: GatewaySandbox): string {
  const path = join(sandbox.stateDir, "channels", "inbound-journal.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

describe("BlueBubbles through the gateway", () => {
  it("refuses a webhook without the password (401), then pairs an unknown DM sender", async () => {
    const { sandbox, bb, hooks } = await start();
    const evil = newMessage({ address: ALICE, text: "run this", guid: "in-evil" });
    const refused = [
      await postWebhook({ url: hooks.main, body: evil, password: null }),
      await postWebhook({ url: hooks.main, body: evil, password: "bb-secreT" }),
      await postWebhook({ url: hooks.main, body: evil, password: OPS_PASSWORD }),
    ];
    expect(refused).toEqual([401, 401, 401]);
    expect(journal(sandbox)).not.toContain("in-evil");
    expect(await postWebhook({ url: hooks.main, body: evil, password: PASSWORD })).toBe(200);
    const code = await waitForText(bb, `iMessage;-;${ALICE}`);
    expect(String(code.json?.message)).toMatch(/Pairing code: [A-Z2-9]{8}/);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
  });

  it("runs a group chat's agent only when mentioned, replying to the message in that chat", async () => {
    const { sandbox, bb, hooks } = await start();
    const quiet = newMessage({ address: BOB, chatGuid: GROUP, text: "lunch at noon" });
    expect(await postWebhook({ url: hooks.main, body: quiet, password: PASSWORD })).toBe(200);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    sandbox.fake.text("Noon works");
    const ask = newMessage({ address: ALICE, chatGuid: GROUP, text: "pincer, ok?" });
    await postWebhook({ url: hooks.main, body: ask, password: PASSWORD });
    const reply = await waitForText(bb, GROUP);
    expect(reply.json).toMatchObject({
      chatGuid: GROUP,
      message: "Noon works",
      method: "private-api",
      selectedMessageGuid: ask.data.guid,
    });
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("lunch at noon");
    const read = sandbox.gw.core.runtime.stores
      .forAgent("team")
      .readTranscript(`agent:team:bluebubbles:group:${GROUP}`.toLowerCase());
    expect(JSON.stringify(read?.entries ?? [])).toContain("Noon works");
  });

  it("routes the second server to its agent; an image in, a workspace file out", async () => {
    const { sandbox, bb, ops, hooks, workspace } = await start({ mainModel: "fake/vision" });
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    ops.addAttachment("att-1", png);
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "report.pdf"), Buffer.alloc(99, 1));
    sandbox.fake.text("Report:\nMEDIA:./report.pdf");
    const dm = newMessage({
      address: BOB,
      text: "what is this?",
      data: {
        attachments: [
          { guid: "att-1", mimeType: "image/png", transferName: "a.png", totalBytes: 16 },
        ],
      },
    });
    expect(await postWebhook({ url: hooks.ops, body: dm, password: OPS_PASSWORD })).toBe(200);
    const upload = await ops.waitForCall((c) => c.route === "message/attachment");
    expect(upload.form).toMatchObject({
      chatGuid: `iMessage;-;${BOB}`,
      name: "report.pdf",
      attachment: { fileName: "report.pdf", size: 99 },
    });
    const text = await waitForText(ops, `iMessage;-;${BOB}`);
    expect(text.json?.message).toBe("Report:");
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain(png.toString("base64"));
    const read = sandbox.gw.core.runtime.stores.forAgent("work").readTranscript("agent:work:main");
    expect(JSON.stringify(read?.entries ?? [])).toContain("what is this?");
    expect(bb.callsOf("message/text")).toHaveLength(0);
  });

  it("`channels status --probe` names the server version", async () => {
    const { sandbox } = await start();
    const status = await createCliSandbox(sandbox.env).run([
      "channels",
      "status",
      "--probe",
      "--json",
      "--url",
      sandbox.gw.url,
    ]);
    const accounts = (JSON.parse(status.stdout) as Loose).channelAccounts.bluebubbles as Loose[];
    expect(accounts.find((a) => a.accountId === "default")?.probe).toMatchObject({
      ok: true,
      identity: { id: "bot@icloud.com", name: "BlueBubbles 1.9.9-fake" },
    });
  });
});
