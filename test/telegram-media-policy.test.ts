// Reply directives cannot exfiltrate files: through the real gateway, the Telegram adapter and the fake
// Bot API, a (prompt-injected) reply naming the state dir's gateway.token — as [[media:]], a MEDIA: line,
// a file:// URL or a relative traversal — uploads nothing; a workspace file still goes out; and the
// gateway's `send` refuses the same file with INVALID_REQUEST.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

const TOKEN = "111:main-token";
const ALICE_ID = 111;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start() {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, { id: 111000, username: "pincer_main_bot" });
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          accounts: { default: { botToken: TOKEN, dmPolicy: "open", allowFrom: ["*"] } },
        },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  const tokenPath = join(box.stateDir, "gateway.token");
  if (!existsSync(tokenPath)) writeFileSync(tokenPath, "gw-secret-token-value\n", { mode: 0o600 });
  const secret = readFileSync(tokenPath, "utf8").trim();
  const workspace = join(box.home, "workspace");
  mkdirSync(workspace, { recursive: true });
  return { sandbox: box, fake, tokenPath, secret, workspace };
}

const uploads = (fake: FakeTelegram) => [
  ...fake.callsOf("sendPhoto", TOKEN),
  ...fake.callsOf("sendDocument", TOKEN),
];

describe("reply media policy on Telegram", () => {
  it("uploads no state-dir file named by a reply, however it is written, and says so in the chat", async () => {
    const { sandbox, fake, tokenPath, secret } = await start();
    sandbox.fake.text(`Here you go [[media:${tokenPath}]]`);
    fake.pushMessage(TOKEN, privateMessage({ text: "send me the token" }));
    const reply = await fake.waitForCall(
      "sendMessage",
      (c) => Number(c.params.chat_id) === ALICE_ID,
    );
    expect(String(reply.params.text)).toContain("Here you go");
    expect(String(reply.params.text)).toContain("1 attachment was not sent");
    expect(uploads(fake)).toEqual([]);

    const variants = [
      `MEDIA:${tokenPath}`,
      "MEDIA: `../.openclaw/gateway.token`",
      `[[media:${pathToFileURL(tokenPath).href}]]`,
      "[[media:~/.openclaw/gateway.token]]",
      "[[media:./sub/../../.openclaw/gateway.token]]",
    ];
    sandbox.fake.text(`Variants\n${variants.join("\n")}`);
    fake.pushMessage(TOKEN, privateMessage({ text: "again" }));
    const second = await fake.waitForCall(
      "sendMessage",
      (c) => Number(c.params.chat_id) === ALICE_ID && String(c.params.text).includes("Variants"),
    );
    expect(String(second.params.text)).toContain(`${variants.length} attachments were not sent`);
    expect(uploads(fake)).toEqual([]);
    const everything = JSON.stringify(fake.calls);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain("gateway.token");
    const logs = payloadOf(
      await (await sandbox.connect()).request("logs.tail", { limit: 500 }),
    ).lines.join("\n");
    expect(logs).toContain("attachment refused by the media policy");
  });

  it("still sends a file from the agent's workspace (relative or absolute)", async () => {
    const { sandbox, fake, workspace } = await start();
    writeFileSync(join(workspace, "chart.png"), Buffer.alloc(321, 7));
    writeFileSync(join(workspace, "report.pdf"), Buffer.alloc(123, 1));
    sandbox.fake.text(`Chart:\nMEDIA:./chart.png\n[[media:${join(workspace, "report.pdf")}]]`);
    fake.pushMessage(TOKEN, privateMessage({ text: "chart please" }));
    const photo = await fake.waitForCall("sendPhoto", (c) => c.token === TOKEN);
    expect(Object.values(photo.files)).toEqual([{ fileName: "chart.png", size: 321 }]);
    const doc = await fake.waitForCall("sendDocument", (c) => c.token === TOKEN);
    expect(Object.values(doc.files)).toEqual([{ fileName: "report.pdf", size: 123 }]);
    const text = await fake.waitForCall("sendMessage", (c) => c.token === TOKEN);
    expect(String(text.params.text)).toBe("Chart:");
  });

  it("gateway send refuses a local file outside the workspace: INVALID_REQUEST, nothing sent", async () => {
    const { sandbox, fake, tokenPath } = await start();
    const client = await sandbox.connect();
    const res = await client.request("send", {
      to: String(ALICE_ID),
      channel: "telegram",
      message: "fyi",
      mediaUrl: tokenPath,
      idempotencyKey: "send-token-1",
    });
    expect(res.ok).toBe(false);
    expect((res.error as { code: string; message: string }).code).toBe("INVALID_REQUEST");
    expect((res.error as { message: string }).message).toContain("media policy");
    expect(fake.callsOf("sendMessage", TOKEN)).toEqual([]);
    expect(uploads(fake)).toEqual([]);
  });
});
