// /restart through the real gateway with its restart hook: over chat.send an operator.admin client
// gets "Restarting…" and then (only after the reply) the restart request; a client without
// operator.admin, `commands.restart: false`, a config file the gateway could not start on and a
// gateway without a restart hook are refused and nothing restarts. Over the fake Telegram Bot API the reply is delivered before the restart, and
// after the restart (a second gateway on the same state dir) the same message delivered again is
// not run again: the gateway restarts once.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  sendChat,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
let second: GatewayHandle | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await second?.close("test done");
  await box?.close();
  await telegram?.close();
  box = undefined;
  second = undefined;
  telegram = undefined;
});

async function send(client: TestClient, message: string) {
  const { event, text } = await sendChat(client, message);
  return { text, command: event.command as unknown };
}

/** A sandbox whose restart hook records the reasons (and what the client had seen by then). */
async function withHook(config?: Partial<OpenClawConfig>) {
  const requests: string[] = [];
  const onRestartRequest = (reason: string) => requests.push(reason);
  box = await createGatewaySandbox({
    ...(config ? { config: () => config } : {}),
    options: { onRestartRequest },
  });
  return { sandbox: box, requests };
}

describe("/restart over chat.send", () => {
  it("replies Restarting… and asks for the restart after the reply", async () => {
    const { sandbox, requests } = await withHook();
    const client = await sandbox.connect();
    const answer = await send(client, "/restart");
    expect(answer).toEqual({ text: "Restarting…", command: "restart" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("/restart from webchat");
    expect(sandbox.fake.chatRequests).toHaveLength(0);
  });

  it("needs operator.admin: a write-only client is refused and nothing restarts", async () => {
    const { sandbox, requests } = await withHook();
    const client = await sandbox.connect({ scopes: ["operator.read", "operator.write"] });
    const answer = await send(client, "/restart");
    expect(answer.text).toContain("/restart needs the operator.admin scope");
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toHaveLength(0);
  });

  it("commands.restart: false refuses, naming the key", async () => {
    const { sandbox, requests } = await withHook({ commands: { restart: false } });
    const client = await sandbox.connect();
    const answer = await send(client, "/restart");
    expect(answer.text).toContain("commands.restart is false");
    expect(answer.text).toContain("nothing was restarted");
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toHaveLength(0);
  });

  it("a config file the gateway could not start on refuses the restart; the gateway keeps running", async () => {
    const { sandbox, requests } = await withHook();
    writeFileSync(sandbox.configPath, "{ not json");
    const client = await sandbox.connect();
    const answer = await send(client, "/restart");
    expect(answer.text).toContain(
      `Not restarting: the config file ${sandbox.configPath} is invalid`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toHaveLength(0);
    expect((await send(client, "/whoami")).text).toContain("Channel: webchat");
  });

  it("a gateway without a restart hook says it cannot restart itself", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const answer = await send(client, "/restart");
    expect(answer.text).toContain("no way to restart itself");
  });
});

describe("/restart over Telegram", () => {
  const TOKEN = "111:main-token";

  it("delivers Restarting… first and is not run again when the message comes back after the restart", async () => {
    const fake = await startFakeTelegram();
    telegram = fake;
    fake.addBot(TOKEN, { id: 111000, username: "pincer_main_bot" });
    const channels = {
      telegram: {
        apiRoot: fake.apiRoot,
        accounts: { default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] } },
      },
    } as OpenClawConfig["channels"];
    const requests: string[] = [];
    let sentBeforeRestart = -1;
    const onRestartRequest = (reason: string) => {
      sentBeforeRestart = fake.callsOf("sendMessage", TOKEN).length;
      requests.push(reason);
    };
    box = await createGatewaySandbox({
      config: () => ({ channels }),
      options: { onRestartRequest },
    });
    await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
    const restart = privateMessage({ text: "/restart" });
    fake.pushMessage(TOKEN, restart);
    const reply = await fake.waitForCall("sendMessage");
    expect(String(reply.params.text)).toBe("Restarting…");
    await waitUntil(() => requests.length === 1, "the restart request");
    expect(sentBeforeRestart).toBe(1);

    // The restart: this gateway closes, a new one starts on the same state dir.
    await box.gw.close("restart requested");
    second = await startGateway({ env: box.env, port: 0, watchConfig: false, onRestartRequest });
    // The same message again (a redelivery), then a new one: only the new one is answered.
    fake.pushMessage(TOKEN, restart);
    fake.pushMessage(TOKEN, privateMessage({ text: "/whoami" }));
    const whoami = await fake.waitForCall("sendMessage", (c) =>
      String(c.params.text).includes(`Your id: ${ALICE.id}`),
    );
    expect(whoami).toBeDefined();
    const texts = fake.callsOf("sendMessage", TOKEN).map((c) => String(c.params.text));
    expect(texts.filter((text) => text === "Restarting…")).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });
});

/** Polls `check` until it holds (5 s bound). */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
