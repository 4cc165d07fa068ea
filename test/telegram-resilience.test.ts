// Telegram failures through the real gateway (port 0, temp state, the built-in adapter): a flood of
// malformed updates (the named table, raw items without an update id, seeded fuzz) between good ones
// is skipped by update id while the gateway keeps serving and the good messages are answered, and a
// restart does not see the bad ones again; one of two bots whose Bot API fails (5xx, garbage, dropped
// connections) is restarted with backoff, visible in `channels.status`, while the other keeps
// answering, and it recovers once its API heals.
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { createEntryLogger, type Logger } from "../src/lib/logger.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  type FakeTelegram,
  type FakeTelegramFailure,
  startFakeTelegram,
} from "./helpers/fake-telegram.js";
import {
  fuzzedUpdates,
  malformedUpdates,
  RAW_MALFORMED_ITEMS,
} from "./helpers/fake-telegram-malformed.js";
import { type FakeUser, privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
} from "./helpers/gateway-sandbox.js";

const MAIN_TOKEN = "111:main-token";
const ALERTS_TOKEN = "222:alerts-token";
const BOB: FakeUser = { id: 333, is_bot: false, first_name: "Bob", username: "bob" };
/** Short restart backoff so the failing account comes back within the test. */
const RESTART = { initialMs: 50, maxMs: 400, jitter: 0, healthyAfterMs: 60_000 };

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
const extra: GatewayHandle[] = [];
afterEach(async () => {
  for (const gw of extra.splice(0)) await gw.close("test done");
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

function recordingLogger(lines: LogLine[]): Logger {
  return createEntryLogger(({ level, msg, fields }) => {
    lines.push({ level, message: msg, fields });
  });
}

/** The fake Bot API and a gateway with bot `default` (Alice allowlisted) and optionally `alerts`. */
async function start(params: {
  alerts?: boolean;
  /** The `alerts` bot's getUpdates fails so from the start, until healed. */
  alertsFailure?: FakeTelegramFailure;
  lines: LogLine[];
}) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(MAIN_TOKEN, { id: 111000, username: "pincer_main_bot" });
  fake.addBot(ALERTS_TOKEN, { id: 222000, username: "pincer_alerts_bot" });
  if (params.alertsFailure) fake.breakBot(ALERTS_TOKEN, params.alertsFailure, ["getUpdates"]);
  const allow = { dmPolicy: "allowlist", allowFrom: ["111"] };
  const accounts: Record<string, unknown> = { default: { botToken: MAIN_TOKEN, ...allow } };
  if (params.alerts) accounts.alerts = { botToken: ALERTS_TOKEN, ...allow };
  box = await createGatewaySandbox({
    config: () => ({
      channels: { telegram: { apiRoot: fake.apiRoot, accounts } } as OpenClawConfig["channels"],
    }),
    options: { logger: recordingLogger(params.lines), channels: { timing: { restart: RESTART } } },
  });
  return { sandbox: box, fake };
}

async function waitUntil(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const SKIPPED = "channel update skipped: malformed";

describe("Telegram resilience through the gateway", () => {
  it("skips a flood of malformed updates by id, answers the good ones, and a restart skips nothing again", async () => {
    const lines: LogLine[] = [];
    const { sandbox, fake } = await start({ lines });
    const client = await sandbox.connect();
    const table = malformedUpdates(BOB);
    const fuzzed = fuzzedUpdates({ seed: 424242, count: 200, from: BOB });

    sandbox.fake.text("first answer");
    fake.pushMessage(MAIN_TOKEN, privateMessage({ text: "before the flood" }));
    const tableIds = table.map((entry) => fake.pushUpdate(MAIN_TOKEN, entry.update));
    for (const item of RAW_MALFORMED_ITEMS) fake.pushRaw(MAIN_TOKEN, item);
    const fuzzIds = fuzzed.map((update) => fake.pushUpdate(MAIN_TOKEN, update));
    sandbox.fake.text("second answer");
    const last = fake.pushMessage(MAIN_TOKEN, privateMessage({ text: "after the flood" }));

    await fake.waitForCall("sendMessage", (c) => c.params.text === "second answer");
    await fake.waitForCall("getUpdates", (c) => Number(c.params.offset) === last + 1);
    // Only Alice's two messages were answered; Bob's still-valid fuzz variants met the allowlist.
    expect(fake.callsOf("sendMessage").map((c) => [c.params.chat_id, c.params.text])).toEqual([
      [111, "first answer"],
      [111, "second answer"],
    ]);
    const skipped = lines.filter((l) => l.message === SKIPPED);
    for (const [i, entry] of table.entries()) {
      const line = skipped.find((l) => l.fields.updateId === tableIds[i]);
      expect(line?.fields, entry.name).toMatchObject({ channel: "telegram", accountId: "default" });
      expect(String(line?.fields.reason), entry.name).toContain(entry.blames);
    }
    expect(
      skipped.filter((l) => fuzzIds.includes(l.fields.updateId as number)).length,
    ).toBeGreaterThan(fuzzed.length / 2);
    // The gateway kept serving, the account never restarted, its status names the last skip.
    const status = await client.request("channels.status", {});
    const account = (status.payload as Loose).channelAccounts.telegram[0];
    expect(account).toMatchObject({ running: true, connected: true, restarts: 0 });
    expect(account.lastError).toMatch(/^update \d+ skipped: update\./);

    // A restart resumes after the last update: nothing is skipped (or received) again.
    await sandbox.gw.close("restart");
    const skipsBefore = lines.filter((l) => l.message === SKIPPED).length;
    const callsBefore = fake.calls.length;
    const gw = await startGateway({
      env: sandbox.env,
      port: 0,
      watchConfig: false,
      logger: recordingLogger(lines),
    });
    extra.push(gw);
    const firstPoll = await fake.waitForCall(
      "getUpdates",
      (c) => c.token === MAIN_TOKEN && fake.calls.indexOf(c) >= callsBefore,
    );
    expect(firstPoll.params.offset).toBe(last + 1);
    expect(lines.filter((l) => l.message === SKIPPED)).toHaveLength(skipsBefore);
    expect(sandbox.fake.chatRequests).toHaveLength(2);
  });

  it.each<[string, FakeTelegramFailure]>([
    ["answers 500", { kind: "status", code: 500, description: "Internal Server Error" }],
    ["answers garbage", { kind: "body", body: "<html>502 from a proxy</html>" }],
    ["answers a result that is not a list", { kind: "body", body: '{"ok":true,"result":{}}' }],
    ["drops connections", { kind: "destroy" }],
  ])(
    "one bot whose API %s is restarted with backoff; the other keeps answering",
    async (_name, failure) => {
      const lines: LogLine[] = [];
      const { sandbox, fake } = await start({ alerts: true, alertsFailure: failure, lines });
      const client = await sandbox.connect();
      const alertsStatus = async () => {
        const res = await client.request("channels.status", {});
        const accounts = (res.payload as Loose).channelAccounts.telegram as Loose[];
        return accounts.find((a) => a.accountId === "alerts")!;
      };

      // The broken bot fails, is restarted again and again, each time after a longer wait.
      await waitUntil(
        () => lines.filter((l) => l.message === "channel account failed; restarting").length >= 3,
        "three restarts of the broken account",
      );
      const failing = await alertsStatus();
      expect(failing.lastError).toMatch(/^getUpdates: /);
      expect(failing.restarts).toBeGreaterThanOrEqual(2);
      const delays = lines
        .filter((l) => l.message === "channel account failed; restarting")
        .map((l) => l.fields.restartInMs as number);
      expect(delays.slice(0, 3)).toEqual([50, 100, 200]);
      expect(
        lines.find((l) => l.message === "channel account failed; restarting")?.fields,
      ).toMatchObject({
        channel: "telegram",
        accountId: "alerts",
      });

      // Meanwhile the healthy bot answers.
      sandbox.fake.text("main still here");
      fake.pushMessage(MAIN_TOKEN, privateMessage({ text: "anyone?" }));
      await fake.waitForCall("sendMessage", (c) => c.params.text === "main still here");

      // The API heals: the next restart connects and the queued message is answered.
      sandbox.fake.text("alerts is back");
      fake.pushMessage(ALERTS_TOKEN, privateMessage({ text: "you there?" }));
      fake.heal(ALERTS_TOKEN);
      await fake.waitForCall(
        "sendMessage",
        (c) => c.token === ALERTS_TOKEN && c.params.text === "alerts is back",
      );
      const healed = await alertsStatus();
      expect(healed).toMatchObject({ running: true, connected: true });
      expect(healed.nextRestartAt).toBeUndefined();
      const mainAccount = (await client.request("channels.status", {})).payload as Loose;
      expect(mainAccount.channelAccounts.telegram[0]).toMatchObject({
        accountId: "default",
        restarts: 0,
      });
    },
  );
});
