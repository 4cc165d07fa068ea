// The built `pincer gateway` as a real process under bad input and buggy code: a malformed Telegram
// update is logged by id and skipped while the good message is answered, and the restarted process
// does not meet it again (before, the process died on it at every start); a promise rejection nobody
// handles and an exception thrown from a timer do not end the process. Needs `npm run build`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { malformedUpdates } from "./helpers/fake-telegram-malformed.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { connectParams, openClient, spawnGateway } from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const TOKEN = "111:main-token";
const FAULTS = fileURLToPath(new URL("./fixtures/inject-process-faults.mjs", import.meta.url));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Home {
  home: string;
  stateDir: string;
  logFile: string;
  env: Record<string, string>;
}

function makeHome(config: Record<string, unknown>): Home {
  const home = makeTempDir("pincer-resilience-");
  const stateDir = join(home, ".openclaw");
  const logFile = join(home, "logs", "gateway.log");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(
    join(stateDir, "openclaw.json"),
    JSON.stringify({ logging: { file: logFile }, ...config }),
  );
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  return { home, stateDir, logFile, env: { HOME: home, OPENCLAW_STATE_DIR: stateDir } };
}

type Gateway = ReturnType<typeof spawnGateway> & { err: string };

async function spawn(home: Home, extraEnv: Record<string, string> = {}): Promise<Gateway> {
  const gw = Object.assign(spawnGateway(["--port", "0"], { ...home.env, ...extraEnv }), {
    err: "",
  });
  gw.child.stderr.on("data", (chunk) => {
    gw.err += chunk;
  });
  cleanup.push(async () => {
    if (gw.child.exitCode === null && gw.child.signalCode === null) {
      gw.child.kill("SIGTERM");
      await gw.exited;
    }
  });
  const url = await gw.waitForUrl();
  if (!url) throw new Error(`gateway did not start: ${gw.out} ${gw.err}`);
  return gw;
}

async function waitUntil(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function logLines(home: Home): Array<Record<string, unknown>> {
  let text = "";
  try {
    text = readFileSync(home.logFile, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** `promise`, or a clear failure as soon as the gateway process exits first. */
function whileAlive<T>(gw: Gateway, promise: Promise<T>): Promise<T> {
  const died = gw.exited.then((code) => {
    throw new Error(`gateway exited (${code}) while waiting: ${gw.err.slice(-2_000)}`);
  });
  return Promise.race([promise, died]);
}

function alive(gw: Gateway): boolean {
  return gw.child.exitCode === null && gw.child.signalCode === null;
}

async function stop(gw: Gateway): Promise<number | null> {
  gw.child.kill("SIGTERM");
  return gw.exited;
}

describe("gateway process resilience", () => {
  it("skips a malformed Telegram update, answers the good one, and a restart does not die on it", async () => {
    const model: FakeOpenAI = await startFakeOpenAI();
    const telegram: FakeTelegram = await startFakeTelegram();
    cleanup.push(
      () => model.close(),
      () => telegram.close(),
    );
    telegram.addBot(TOKEN, { id: 111000, username: "pincer_main_bot" });
    const home = makeHome({
      models: fakeProviderConfig(model.baseUrl),
      agents: { defaults: { model: "fake/m1" }, list: [{ id: "main" }] },
      channels: {
        telegram: {
          apiRoot: telegram.apiRoot,
          accounts: { default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: ["111"] } },
        },
      },
    });
    const [noChat, badPhoto] = [
      malformedUpdates().find((entry) => entry.name === "no chat")!,
      malformedUpdates().find((entry) => entry.name === "photo is an object")!,
    ];
    const badOne = telegram.pushUpdate(TOKEN, noChat.update);
    const goodOne = telegram.pushMessage(TOKEN, privateMessage({ text: "first" }));
    model.text("answer one");

    const first = await spawn(home);
    await whileAlive(
      first,
      telegram.waitForCall("sendMessage", (c) => c.params.text === "answer one"),
    );
    await telegram.waitForCall("getUpdates", (c) => Number(c.params.offset) === goodOne + 1);
    expect(alive(first)).toBe(true);
    expect(await stop(first)).toBe(0);
    const skipped = logLines(home).filter((l) => l.msg === "channel update skipped: malformed");
    expect(skipped).toEqual([
      expect.objectContaining({ updateId: badOne, reason: "update.message.chat: missing" }),
    ]);

    // While it is down: another malformed update and a good one. The restart resumes past the first
    // bad update (never offered again), skips the new one and answers.
    const badTwo = telegram.pushUpdate(TOKEN, badPhoto.update);
    const goodTwo = telegram.pushMessage(TOKEN, privateMessage({ text: "second" }));
    model.text("answer two");
    const callsBefore = telegram.calls.length;
    const second = await spawn(home);
    const firstPoll = await telegram.waitForCall(
      "getUpdates",
      (c) => telegram.calls.indexOf(c) >= callsBefore,
    );
    expect(firstPoll.params.offset).toBe(goodOne + 1);
    await whileAlive(
      second,
      telegram.waitForCall("sendMessage", (c) => c.params.text === "answer two"),
    );
    await telegram.waitForCall("getUpdates", (c) => Number(c.params.offset) === goodTwo + 1);
    expect(alive(second)).toBe(true);
    expect(await stop(second)).toBe(0);
    const skippedIds = logLines(home)
      .filter((l) => l.msg === "channel update skipped: malformed")
      .map((l) => l.updateId);
    expect(skippedIds).toEqual([badOne, badTwo]);
    expect(telegram.callsOf("sendMessage").map((c) => c.params.text)).toEqual([
      "answer one",
      "answer two",
    ]);
  });

  it("a promise rejection nobody handles and an exception thrown from a timer do not end it", async () => {
    const home = makeHome({});
    const gw = await spawn(home, { NODE_OPTIONS: `--import ${FAULTS}` });
    gw.child.kill("SIGUSR2");
    await waitUntil(() => gw.err.includes("faults injected") || !alive(gw), "the injected faults");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(gw)).toBe(true);

    // Still serving: a client with the generated token gets in.
    const url = /listening on (ws:\/\/\S+)/.exec(gw.out)![1]!;
    const token = readFileSync(join(home.stateDir, "gateway.token"), "utf8").trim();
    const client = await openClient(url);
    const hello = await client.request("connect", connectParams({ auth: { token } }));
    expect(hello.ok).toBe(true);
    client.close();

    expect(await stop(gw)).toBe(0);
    const contained = logLines(home).filter((l) => String(l.msg).includes("contained"));
    expect(contained).toEqual([
      expect.objectContaining({ kind: "unhandledRejection", error: "injected rejection" }),
      expect.objectContaining({ kind: "uncaughtException", error: "injected exception" }),
    ]);
  });
});
