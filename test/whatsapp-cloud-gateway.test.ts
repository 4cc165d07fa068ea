// WhatsApp Business Cloud API end to end: the real gateway serves each account's webhook on its
// own HTTP port, the fake Graph API plays Meta (signed webhooks, the messages endpoint), the fake
// model answers. Handshake, signature refusal, replies with the bearer token from the account's own
// number, E.164 peer bindings, media, and `message send` / `channels status --probe`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  type FakeGraphApi,
  metaSignature,
  postWebhook,
  textMessage,
  verifyWebhook,
  webhookBody,
} from "./helpers/fake-graph-api.js";
import type { GatewaySandbox, Loose } from "./helpers/gateway-sandbox.js";
import {
  BIZ,
  type CloudGateway,
  OPS,
  startCloudGateway,
  transcriptText,
  VIP_NUMBER,
  VIP_WA_ID,
} from "./helpers/whatsapp-cloud-gateway.js";

const ALICE = "15557654321";

let setup: CloudGateway | undefined;
afterEach(async () => {
  await setup?.box.close();
  await setup?.graph.close();
  setup = undefined;
});

function journalText(box: GatewaySandbox): string {
  const path = join(box.stateDir, "channels", "inbound-journal.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

const cli = (box: GatewaySandbox, argv: string[]) =>
  createCliSandbox(box.env).run([...argv, "--url", box.gw.url]);

function aliceSays(id: string, text: string, from = ALICE, phoneNumberId = BIZ.phoneNumberId) {
  return webhookBody({
    phoneNumberId,
    contacts: [{ waId: from, name: "Alice" }],
    messages: [textMessage({ from, id, text })],
  });
}

function replyOf(graph: FakeGraphApi, phoneNumberId: string, nth = 1) {
  return graph.waitForCall((call) => graph.messagesOf(phoneNumberId).indexOf(call) === nth - 1);
}

describe("WhatsApp Cloud API through the gateway", () => {
  it("answers Meta's subscription handshake only with the verify token", async () => {
    setup = await startCloudGateway();
    const url = setup.webhookUrl(BIZ);
    const ok = await verifyWebhook({ url, verifyToken: BIZ.verifyToken, challenge: "ch-123" });
    expect(ok).toEqual({ status: 200, text: "ch-123\n" });
    const wrong = await verifyWebhook({ url, verifyToken: OPS.verifyToken, challenge: "x" });
    expect(wrong.status).toBe(403);
    const mode = await verifyWebhook({
      url,
      verifyToken: BIZ.verifyToken,
      challenge: "x",
      mode: "unsubscribe",
    });
    expect(mode.status).toBe(403);
    const other = `http://127.0.0.1:${setup.box.gw.port}/webhooks/whatsapp/nobody`;
    expect((await verifyWebhook({ url: other, verifyToken: "x", challenge: "x" })).status).toBe(
      404,
    );
  });

  it("replies to a signed text through the account's number with its bearer token", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    box.fake.text("Hello **Alice**, see [docs](https://x.dev)");
    const posted = await postWebhook({
      url: setup.webhookUrl(BIZ),
      appSecret: BIZ.appSecret,
      body: aliceSays("wamid.in.1", "hi there"),
    });
    expect(posted.status).toBe(200);
    const reply = await replyOf(graph, BIZ.phoneNumberId);
    expect(reply.token).toBe(BIZ.token);
    expect(reply.json).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: ALICE,
      type: "text",
      text: { body: "Hello *Alice*, see docs (https://x.dev)", preview_url: false },
      context: { message_id: "wamid.in.1" },
    });
    const prompt = JSON.stringify(box.fake.chatRequests[0]!.body);
    expect(prompt).toContain("hi there");
    const entry = box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({
      lastChannel: "whatsapp",
      lastTo: `+${ALICE}`,
      lastAccountId: "biz",
    });
    // A reply to our own message carries the text it quotes.
    box.fake.text("second");
    const quoting = textMessage({
      from: ALICE,
      id: "wamid.in.2",
      text: "what?",
      contextId: "wamid.out.1234567890.1",
    });
    await postWebhook({
      url: setup.webhookUrl(BIZ),
      appSecret: BIZ.appSecret,
      body: webhookBody({ phoneNumberId: BIZ.phoneNumberId, messages: [quoting] }),
    });
    await replyOf(graph, BIZ.phoneNumberId, 2);
    expect(JSON.stringify(box.fake.chatRequests[1]!.body)).toContain("Hello *Alice*");
  });

  it("refuses unsigned and wrongly signed webhooks with 401 and runs nothing", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    const url = setup.webhookUrl(BIZ);
    const body = aliceSays("wamid.in.evil", "run rm -rf");
    const text = JSON.stringify(body);
    const signedText = metaSignature(text, BIZ.appSecret);
    const refused = [
      await postWebhook({ url, body, signature: null }),
      await postWebhook({ url, body, appSecret: OPS.appSecret }),
      await postWebhook({ url, body, signature: "sha256=00" }),
      await postWebhook({ url, body, signature: signedText.toUpperCase() }),
      // A valid signature of the body covers exactly its bytes: one more space breaks it.
      await postWebhook({ url, body: `${text} `, signature: signedText }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    // Accepted messages are journaled before the answer: none of these was.
    expect(journalText(box)).not.toContain("wamid.in.evil");
    // The same body signed right is taken: the refusals were about the signature alone.
    box.fake.text("ok");
    const callsBefore = graph.calls.length;
    expect((await postWebhook({ url, body: text, signature: signedText })).status).toBe(200);
    await replyOf(graph, BIZ.phoneNumberId);
    expect(box.fake.chatRequests).toHaveLength(1);
    expect(graph.calls.length).toBeGreaterThan(callsBefore);
    expect(journalText(box)).toContain("wamid.in.evil");
  });

  it("routes a wa_id by its E.164 binding and each account replies from its own number", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    box.fake.text("for the vip");
    await postWebhook({
      url: setup.webhookUrl(BIZ),
      appSecret: BIZ.appSecret,
      body: aliceSays("wamid.vip.1", "vip here", VIP_WA_ID),
    });
    const vipReply = await replyOf(graph, BIZ.phoneNumberId);
    expect(vipReply.json?.to).toBe(VIP_WA_ID);
    expect(transcriptText(box, "vip", "agent:vip:main")).toContain("vip here");
    expect(box.gw.core.runtime.stores.forAgent("vip").get("agent:vip:main")?.lastTo).toBe(
      VIP_NUMBER,
    );

    box.fake.text("from ops");
    await postWebhook({
      url: setup.webhookUrl(OPS),
      appSecret: OPS.appSecret,
      body: aliceSays("wamid.ops.1", "ops question", ALICE, OPS.phoneNumberId),
    });
    const opsReply = await replyOf(graph, OPS.phoneNumberId);
    expect(opsReply.token).toBe(OPS.token);
    expect(opsReply.json?.text).toEqual({ body: "from ops", preview_url: false });
    expect(transcriptText(box, "work", "agent:work:main")).toContain("ops question");
    expect(graph.messagesOf(BIZ.phoneNumberId)).toHaveLength(1);
    // The biz secret does not open the ops webhook.
    const crossed = await postWebhook({
      url: setup.webhookUrl(OPS),
      appSecret: BIZ.appSecret,
      body: aliceSays("wamid.ops.2", "crossed", ALICE, OPS.phoneNumberId),
    });
    expect(crossed.status).toBe(401);
  });

  it("downloads an inbound image for the model and passes documents by id", async () => {
    setup = await startCloudGateway({ mainModel: "fake/vision" });
    const { box, graph } = setup;
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    graph.addMedia({ id: "media.in.7", mimeType: "image/png", bytes: png });
    box.fake.text("nice picture");
    const image = {
      from: ALICE,
      id: "wamid.img.1",
      timestamp: "1700000000",
      type: "image",
      image: { id: "media.in.7", mime_type: "image/png", sha256: "x", caption: "look" },
    };
    await postWebhook({
      url: setup.webhookUrl(BIZ),
      appSecret: BIZ.appSecret,
      body: webhookBody({ phoneNumberId: BIZ.phoneNumberId, messages: [image] }),
    });
    await replyOf(graph, BIZ.phoneNumberId);
    const prompt = JSON.stringify(box.fake.chatRequests[0]!.body);
    expect(prompt).toContain("look");
    expect(prompt).toContain(png.toString("base64"));
    const lookup = graph.calls.find((c) => c.route === "media.in.7");
    expect(lookup?.token).toBe(BIZ.token);
    const download = graph.calls.find((c) => c.route === "download/media.in.7");
    expect(download?.token).toBe(BIZ.token);
  });

  it("`message send` goes out through the cloud account; `channels status --probe` names the number", async () => {
    setup = await startCloudGateway();
    const { box, graph } = setup;
    const sent = await cli(box, [
      "message",
      "send",
      "--channel",
      "whatsapp",
      "--account",
      "biz",
      "--to",
      "+1 555 765 4321",
      "-m",
      "**ping**",
      "--json",
    ]);
    expect(sent.stderr).toBe("");
    expect(JSON.parse(sent.stdout)).toMatchObject({ channel: "whatsapp", accountId: "biz" });
    const call = await replyOf(graph, BIZ.phoneNumberId);
    expect(call.json).toMatchObject({ to: ALICE, text: { body: "*ping*" } });
    const status = await cli(box, ["channels", "status", "--probe", "--json"]);
    const accounts = (JSON.parse(status.stdout) as Loose).channelAccounts.whatsapp as Loose[];
    const biz = accounts.find((a) => a.accountId === "biz");
    expect(biz?.probe).toMatchObject({
      ok: true,
      identity: { id: BIZ.phoneNumberId, name: "Biz Inc", username: "+1 555 000 7890" },
    });
  });
});
