import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeGraphApi, startFakeGraphApi } from "../../../../test/helpers/fake-graph-api.js";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import type { OutboundMessage } from "../../index.js";
import { createGraphClient } from "./graph-client.js";
import { createRecentMessages } from "./recent-messages.js";
import { CLOUD_TEXT_LIMIT, sendCloudMessage, splitText } from "./send.js";

const PHONE = { id: "555000", token: "tok", display: "+1 555", name: "Biz" };
let graph: FakeGraphApi;
beforeEach(async () => {
  graph = await startFakeGraphApi();
  graph.addPhoneNumber(PHONE);
});
afterEach(() => graph.close());

function send(message: Omit<OutboundMessage, "target">, token = PHONE.token) {
  const client = createGraphClient({
    graphBase: `${graph.apiRoot}/v21.0`,
    accessToken: token,
    timeoutMs: 5_000,
  });
  return sendCloudMessage({
    graph: client,
    settings: { phoneNumberId: PHONE.id },
    message: {
      target: {
        accountId: "biz",
        peer: { kind: "direct", id: "+15551230001" },
        replyToId: "wamid.q",
      },
      ...message,
    },
    recent: createRecentMessages(),
  });
}

describe("cloud sends", () => {
  it("uploads a local file, links a URL, captions in WhatsApp markup, quotes once", async () => {
    const dir = makeTempDir("pincer-wa-send-");
    const path = join(dir, "report.pdf");
    writeFileSync(path, "%PDF-1.4 test");
    const result = await send({
      text: "see **both**",
      media: [{ path, caption: "the *report*" }, { url: "https://cdn.example/cat.png" }],
    });
    expect(result.ok).toBe(true);
    const messages = graph.messagesOf(PHONE.id).map((c) => c.json);
    expect(messages).toEqual([
      expect.objectContaining({ type: "text", context: { message_id: "wamid.q" } }),
      expect.objectContaining({
        type: "document",
        document: { id: "media.up.1", caption: "the _report_" },
      }),
      expect.objectContaining({ type: "image", image: { link: "https://cdn.example/cat.png" } }),
    ]);
    expect(messages[1]).not.toHaveProperty("context");
    const upload = graph.calls.find((c) => c.route === `${PHONE.id}/media`);
    expect(upload?.form).toMatchObject({
      messaging_product: "whatsapp",
      type: "application/pdf",
      file: { fileName: "report.pdf", type: "application/pdf", size: 13 },
    });
  });

  it("refuses groups and non-numbers; a failure after the first part is final", async () => {
    const client = createGraphClient({
      graphBase: `${graph.apiRoot}/v21.0`,
      accessToken: "tok",
      timeoutMs: 5_000,
    });
    const group = await sendCloudMessage({
      graph: client,
      settings: { phoneNumberId: PHONE.id },
      message: {
        target: { accountId: "biz", peer: { kind: "group", id: "1203@g.us" } },
        text: "x",
      },
      recent: createRecentMessages(),
    });
    expect(group.ok || group.failure).toMatchObject({ code: "bad_target", retryable: false });
    graph.failNext({ route: "media", status: 503, error: { code: 2, message: "down" } });
    const file = join(makeTempDir("pincer-wa-send-"), "x.png");
    writeFileSync(file, "png");
    const partial = await send({ text: "first", media: [{ path: file }] });
    expect(partial.ok || partial.failure.message).toContain("1 of 2 parts sent");
    expect(partial.ok || partial.failure.message).toContain("Graph error 2");
    expect(partial.ok || partial.failure.retryable).toBe(false);
    // Nothing out yet: the same 5xx on the first part may be retried.
    graph.failNext({ route: "messages", status: 503, error: { code: 2, message: "down" } });
    const first = await send({ text: "again" });
    expect(first.ok || first.failure.retryable).toBe(true);
  });

  it("names an expired token and the closed 24-hour window", async () => {
    const expired = await send({ text: "hi" }, "tok-old");
    expect(expired.ok || expired.failure.message).toContain(
      "access token expired or invalid (Graph error 190)",
    );
    graph.failNext({
      route: "messages",
      status: 400,
      error: { code: 131047, message: "Re-engagement message" },
    });
    const window = await send({ text: "hi" });
    expect(window.ok || window.failure).toMatchObject({ code: "graph_131047", retryable: false });
    graph.failNext({
      route: "messages",
      status: 400,
      error: { code: 130429, message: "Rate limit hit" },
      headers: { "retry-after": "3" },
    });
    const limited = await send({ text: "hi" });
    expect(limited.ok || limited.failure).toMatchObject({ retryable: true, retryAfterMs: 3000 });
  });

  it("cuts long text at a space within the body limit", () => {
    const words = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(" ");
    const pieces = splitText(words, CLOUD_TEXT_LIMIT);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(CLOUD_TEXT_LIMIT);
    expect(pieces.join(" ")).toBe(words);
  });
});
