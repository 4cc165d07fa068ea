// Image attachments on `agent` and `chat.send` end to end: the real gateway, a WS client and the
// fake model (a vision model): an attached image reaches the model as an image part, typed by its
// bytes; anything that is not an image, or is too big, or too many, is refused naming the item,
// and then nothing runs.
import { afterEach, describe, expect, it } from "vitest";
import { MAX_ATTACHMENTS, MAX_IMAGE_BYTES } from "../src/gateway/methods/attachments.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

// A 1×1 PNG.
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e2a1c2a10000000049454e44ae426082",
  "hex",
).toString("base64");

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function start() {
  box = await createGatewaySandbox({
    config: () => ({ agents: { defaults: { model: "fake/vision" }, list: [{ id: "main" }] } }),
  });
  return box;
}

function modelBody(sandbox: GatewaySandbox, index = 0): string {
  return JSON.stringify(sandbox.fake.chatRequests[index]?.body ?? null);
}

describe("gateway attachments", () => {
  it("chat.send passes an attached image to the model with the message, also with no text", async () => {
    const sandbox = await start();
    sandbox.fake.text("a pixel");
    sandbox.fake.text("still a pixel");
    const client = await sandbox.connect();
    const first = await client.request("chat.send", {
      sessionKey: "main",
      message: "what is this?",
      idempotencyKey: "att-1",
      attachments: [{ type: "image", mimeType: "image/png", fileName: "dot.png", content: PNG }],
    });
    expect(first.ok).toBe(true);
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === "att-1" && payloadOf(f).state === "final",
    );
    expect(modelBody(sandbox)).toContain(`data:image/png;base64,${PNG}`);
    expect(modelBody(sandbox)).toContain("what is this?");
    // No text and no image is still refused.
    const empty = await client.request("chat.send", {
      sessionKey: "main",
      message: " ",
      idempotencyKey: "att-empty",
    });
    expect(empty.error).toMatchObject({ code: "INVALID_REQUEST", message: /message is empty/ });
    // An image alone is a message; its type comes from its bytes (a data: URL works too).
    const second = await client.request("chat.send", {
      sessionKey: "main",
      message: "",
      idempotencyKey: "att-2",
      attachments: [{ mimeType: "image/jpeg", content: `data:image/jpeg;base64,${PNG}` }],
    });
    expect(second.ok).toBe(true);
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === "att-2" && payloadOf(f).state === "final",
    );
    expect(modelBody(sandbox, 1)).toContain(`data:image/png;base64,${PNG}`);
  });

  it("agent passes attached images to the model", async () => {
    const sandbox = await start();
    sandbox.fake.text("two pixels");
    const client = await sandbox.connect();
    const ack = await client.request("agent", {
      message: "compare",
      idempotencyKey: "att-agent",
      sessionKey: "main",
      attachments: [
        { type: "image", mimeType: "image/png", content: PNG },
        { type: "image", mimeType: "image/png", content: PNG },
      ],
    });
    expect(ack.ok).toBe(true);
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
    );
    expect(payloadOf(final).status).toBe("ok");
    expect(modelBody(sandbox).split(`data:image/png;base64,${PNG}`)).toHaveLength(3);
  });

  it("refuses what is not an image, bad base64, too big or too many, naming the item; nothing runs", async () => {
    const sandbox = await start();
    const client = await sandbox.connect();
    const text = Buffer.from("hello").toString("base64");
    const cases: Array<{ attachments: unknown[]; says: RegExp }> = [
      {
        attachments: [
          { type: "file", mimeType: "text/plain", fileName: "notes.txt", content: text },
        ],
        says: /attachments\[0\] \(notes\.txt\): only images can be attached/,
      },
      {
        attachments: [{ mimeType: "image/png", fileName: "fake.png", content: text }],
        says: /attachments\[0\] \(fake\.png\): not a JPEG, PNG, GIF or WebP image \(declared image\/png\)/,
      },
      {
        attachments: [{ content: PNG }, { mimeType: "image/png", content: "%%%not-base64" }],
        says: /attachments\[1\]: content is not valid base64/,
      },
      {
        attachments: [{ mimeType: "image/png" }],
        says: /attachments\[0\]: content .* is required/,
      },
      { attachments: ["dot.png"], says: /attachments\[0\] must be an object/ },
      {
        attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, () => ({ content: PNG })),
        says: new RegExp(`${MAX_ATTACHMENTS + 1} attachments: at most ${MAX_ATTACHMENTS}`),
      },
      {
        attachments: [
          {
            content: Buffer.concat([
              Buffer.from(PNG, "base64"),
              Buffer.alloc(MAX_IMAGE_BYTES),
            ]).toString("base64"),
          },
        ],
        says: /attachments\[0\]: \d+ bytes is over the 6291456-byte image limit/,
      },
    ];
    for (const [index, { attachments, says }] of cases.entries()) {
      for (const method of ["chat.send", "agent"] as const) {
        const res = await client.request(method, {
          sessionKey: "main",
          message: "look",
          idempotencyKey: `bad-${method}-${index}`,
          attachments,
        });
        expect(res.ok, `${method} case ${index}`).toBe(false);
        expect(res.error).toMatchObject({ code: "INVALID_REQUEST" });
        expect((res.error as { message: string }).message).toMatch(says);
      }
    }
    expect(sandbox.fake.chatRequests).toHaveLength(0);
  });
});
