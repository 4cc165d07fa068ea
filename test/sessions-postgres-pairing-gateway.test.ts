// Telegram DM pairing through a real gateway with `cluster.store` on a real PostgreSQL: the unknown
// sender gets a code, `pincer pairing approve` (the CLI, another process's store) writes the approval
// to PostgreSQL, the gateway's periodic refresh picks it up and the next DM is answered; nothing is
// written under the state dir's credentials/.
import { existsSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";

const TOKEN = "111:main-token";
const db = await createTestDatabase("sessions_pg_pairing_gw");
const sql = db ? postgres(db.url, { max: 1, onnotice: () => {} }) : undefined;
let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterAll(async () => {
  await box?.close();
  await telegram?.close();
  await sql?.end({ timeout: 5 });
});

describe.skipIf(!db)("Telegram DM pairing with the store in PostgreSQL", () => {
  it("a code, an approval with the CLI, then the next DM is answered", async () => {
    const fake = await startFakeTelegram();
    telegram = fake;
    fake.addBot(TOKEN, { id: 111000, username: "pincer_main_bot" });
    const cluster = { store: { kind: "postgres" as const, url: db!.url, schema: "pairgw" } };
    box = await createGatewaySandbox({
      config: () => ({
        cluster,
        channels: {
          telegram: { apiRoot: fake.apiRoot, accounts: { default: { botToken: TOKEN } } },
        } as OpenClawConfig["channels"],
      }),
    });
    const sandbox = box;
    await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
    const sends = () =>
      fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === 111);

    fake.pushMessage(TOKEN, privateMessage({ text: "hello?" }));
    const codeCall = await fake.waitForCall("sendMessage", (c) => sends().indexOf(c) === 0);
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codeCall.params.text))?.[1];
    expect(code).toBeDefined();
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    await expect
      .poll(async () => {
        const rows = await sql!`select doc::text as doc from pairgw.documents
          where name = 'pairing/telegram'`;
        return rows[0]?.doc ?? "";
      })
      .toContain(code!);

    const approved = await createCliSandbox(sandbox.env).run([
      "pairing",
      "approve",
      "telegram",
      code!,
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    // The gateway's refresh (every 2 s) brings the approval in.
    const pairing = () => sandbox.gw.core.channels.pairing();
    await expect
      .poll(() => pairing().allowFrom("telegram", "default"), { timeout: 10_000 })
      .toEqual(["111"]);

    sandbox.fake.text("Welcome aboard");
    fake.pushMessage(TOKEN, privateMessage({ text: "now?" }));
    const reply = await fake.waitForCall("sendMessage", (c) => sends().indexOf(c) === 1);
    expect(reply.params.text).toBe("Welcome aboard");
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    expect(existsSync(join(sandbox.stateDir, "credentials"))).toBe(false);
  });
});
