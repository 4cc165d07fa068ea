// WhatsApp Cloud API delivery guarantees through the real gateway: Meta redelivering a message id
// runs it once (also after a gateway restart: the inbound journal seeds the dedupe), a `failed`
// status callback for a sent reply becomes a dead letter (`channels failures`, lastError), an
// expired token is named as such, and a config with a missing app secret never opens a webhook.
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { postWebhook, textMessage, webhookBody } from "./helpers/fake-graph-api.js";
import { type GatewaySandbox, type Loose, payloadOf } from "./helpers/gateway-sandbox.js";
import {
  BIZ,
  type CloudGateway,
  OPS,
  startCloudGateway,
  transcriptText,
  waitForWebhook,
  waitUntil,
} from "./helpers/whatsapp-cloud-gateway.js";

const ALICE = "15557654321";

let setup: CloudGateway | undefined;
const restarted: GatewayHandle[] = [];
afterEach(async () => {
  for (const gw of restarted.splice(0)) await gw.close("test done");
  await setup?.box.close();
  await setup?.graph.close();
  setup = undefined;
});

const cli = (box: GatewaySandbox, argv: string[]) =>
  createCliSandbox(box.env).run([...argv, "--url", box.gw.url]);

const aliceSays = (id: string, text: string) =>
  webhookBody({
    phoneNumberId: BIZ.phoneNumberId,
    contacts: [{ waId: ALICE, name: "Alice" }],
    messages: [textMessage({ from: ALICE, id, text })],
  });

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe("WhatsApp Cloud API reliability", () => {
  it("runs a message Meta delivers twice once, also after a gateway restart", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    const url = setup.webhookUrl(BIZ);
    box.fake.text("only once");
    const body = aliceSays("wamid.dup.1", "hello dup");
    expect((await postWebhook({ url, body, appSecret: BIZ.appSecret })).status).toBe(200);
    expect((await postWebhook({ url, body, appSecret: BIZ.appSecret })).status).toBe(200);
    await graph.waitForCall((c) => graph.messagesOf(BIZ.phoneNumberId).includes(c));
    await box.gw.close("restart");

    const gw = await startGateway({ env: box.env, port: 0, watchConfig: false });
    restarted.push(gw);
    const again = `http://127.0.0.1:${gw.port}/webhooks/whatsapp/biz`;
    await waitForWebhook(again);
    expect((await postWebhook({ url: again, body, appSecret: BIZ.appSecret })).status).toBe(200);
    // A new message after the redelivery proves the account took webhooks and ran them in order.
    box.fake.text("second reply");
    const next = aliceSays("wamid.dup.2", "a new one");
    expect((await postWebhook({ url: again, body: next, appSecret: BIZ.appSecret })).status).toBe(
      200,
    );
    await waitUntil(() => graph.messagesOf(BIZ.phoneNumberId).length === 2, "the second reply");
    expect(box.fake.chatRequests).toHaveLength(2);
    const text = transcriptText({ ...box, gw } as GatewaySandbox, "main", "agent:main:main");
    expect(occurrences(text, "hello dup")).toBe(1);
    expect(occurrences(text, "a new one")).toBe(1);
  });

  it("turns a failed status callback into a dead letter shown in failures and status", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    const url = setup.webhookUrl(BIZ);
    const client = await box.connect();
    box.fake.text("you will not see this");
    await postWebhook({ url, body: aliceSays("wamid.in.5", "hi"), appSecret: BIZ.appSecret });
    const reply = await graph.waitForCall((c) => graph.messagesOf(BIZ.phoneNumberId).includes(c));
    expect(reply.json?.to).toBe(ALICE);
    const sentId = `wamid.out.${BIZ.phoneNumberId}.1`;
    const failed = {
      id: sentId,
      status: "failed",
      timestamp: "1700000100",
      recipient_id: ALICE,
      errors: [
        {
          code: 131047,
          title: "Re-engagement message",
          error_data: { details: "Message failed to send because more than 24 hours have passed" },
        },
      ],
    };
    const delivered = { ...failed, status: "delivered", errors: undefined };
    const statusBody = webhookBody({
      phoneNumberId: BIZ.phoneNumberId,
      statuses: [delivered, failed],
    });
    expect((await postWebhook({ url, body: statusBody, appSecret: BIZ.appSecret })).status).toBe(
      200,
    );
    // Meta redelivers callbacks too: the same failure is recorded once.
    await postWebhook({ url, body: statusBody, appSecret: BIZ.appSecret });
    const event = await client.waitFor((f) => f.type === "event" && f.event === "delivery.failed");
    expect(payloadOf(event)).toMatchObject({
      channel: "whatsapp",
      accountId: "biz",
      code: "whatsapp_131047",
      text: "you will not see this",
    });
    expect(String(payloadOf(event).error)).toContain("24 hours");
    const listed = await cli(box, ["channels", "failures", "--json"]);
    const entries = (JSON.parse(listed.stdout) as Loose).entries as Loose[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ state: "failed", text: "you will not see this" });
    const status = payloadOf(await client.request("channels.status"));
    const biz = (status.channelAccounts.whatsapp as Loose[]).find((a) => a.accountId === "biz");
    expect(biz).toMatchObject({ failedDeliveries: 1 });
    expect(biz?.lastError).toContain("only a template message can reach them");
    // An operator retry sends it again (the window may have reopened).
    const retried = await cli(box, ["channels", "failures", "retry", entries[0]!.id]);
    expect(retried.code).toBe(0);
    await waitUntil(() => graph.messagesOf(BIZ.phoneNumberId).length === 2, "the retried send");
    client.close();
  });

  it("names an expired access token in status, probe and a failed send", async () => {
    setup = await startCloudGateway({ biz: { accessToken: "tok-expired" } });
    const { box } = setup;
    const client = await box.connect();
    await waitUntil(() => {
      const slot = box.gw.core.channels.host;
      return slot !== undefined;
    }, "the channel host");
    const sent = await client.request("send", {
      to: `+${ALICE}`,
      channel: "whatsapp",
      accountId: "biz",
      message: "ping",
      idempotencyKey: "k-expired",
    });
    expect(sent.ok).toBe(false);
    expect(JSON.stringify(sent.error)).toContain(
      "access token expired or invalid (Graph error 190)",
    );
    const status = payloadOf(await client.request("channels.status", { probe: true }));
    const biz = (status.channelAccounts.whatsapp as Loose[]).find((a) => a.accountId === "biz");
    expect(biz?.lastError).toContain("access token expired or invalid (Graph error 190)");
    expect(biz?.probe).toMatchObject({ ok: false });
    expect(String(biz?.probe.error)).toContain("Graph error 190");
    client.close();
  });

  it("refuses a second account on a taken webhook path, naming the owner", async () => {
    setup = await startCloudGateway({
      ops: { webhookPath: "/webhooks/whatsapp/biz" },
      waitFor: [BIZ],
    });
    const client = await setup.box.connect();
    let errors: string[] = [];
    for (let i = 0; i < 200 && errors.length === 0; i++) {
      const status = payloadOf(await client.request("channels.status"));
      errors = (status.channelAccounts.whatsapp as Loose[])
        .map((a) => String(a.lastError ?? ""))
        .filter((e) => e.includes("is already served by"));
      if (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(errors[0]).toMatch(
      /webhook path \/webhooks\/whatsapp\/biz is already served by whatsapp\/(biz|ops): give each account its own webhookPath/,
    );
    client.close();
  });

  it("never opens the webhook of an account without an app secret", async () => {
    setup = await startCloudGateway({
      biz: { appSecret: undefined, verifyToken: undefined },
      waitFor: [OPS],
    });
    const { box } = setup;
    const client = await box.connect();
    const status = payloadOf(await client.request("channels.status"));
    const biz = (status.channelAccounts.whatsapp as Loose[]).find((a) => a.accountId === "biz");
    expect(biz).toMatchObject({ configured: false, running: false });
    expect(biz?.lastError).toContain("missing appSecret, verifyToken");
    const res = await postWebhook({
      url: setup.webhookUrl(BIZ),
      body: aliceSays("wamid.x", "x"),
      signature: null,
    });
    // Not a webhook path: the gateway's own routes answer (GET and HEAD only there).
    expect(res.status).toBe(405);
    expect(box.fake.chatRequests).toHaveLength(0);
    client.close();
  });
});
