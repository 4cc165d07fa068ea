// Plugins end to end: plugin modules written to a temp dir and loaded by the real gateway (port 0,
// temp state, the fake model): a before_tool_call hook blocks exec (the model gets the tool error,
// the command never runs), before_prompt_build context reaches the model, a plugin tool is called,
// a plugin gateway method answers over WS, a plugin chat command and a cancelled reply in a fake
// Telegram chat, a broken plugin reported while the gateway runs, and `pincer plugins list`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox, sendChat } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const GUARD_PLUGIN = `
import { appendFileSync } from "node:fs";
export default {
  id: "guard",
  register(api) {
    const log = (line) => appendFileSync(api.pluginConfig.logFile, line + "\\n");
    api.on("before_tool_call", (event) =>
      event.toolName === "exec" ? { block: true, blockReason: api.pluginConfig.reason } : undefined,
    );
    api.on("before_prompt_build", () => ({
      prependContext: "PLUGIN-CONTEXT-42",
      appendSystemContext: "PLUGIN-SYSTEM-7",
    }));
    api.registerTool({
      name: "weather",
      label: "Weather",
      description: "The weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      execute: async (_id, params) => ({
        content: [{ type: "text", text: "sunny in " + params.city }],
        details: {},
      }),
    });
    api.registerCommand({
      name: "ping",
      description: "Answers pong",
      handler: (ctx) => ({ text: "pong from " + ctx.channel }),
    });
    api.registerGatewayMethod(
      "guard.status",
      ({ params, respond }) => respond(true, { ok: true, echo: params.x }),
      { scope: "operator.read" },
    );
    api.on("message_sending", (event) => {
      if (!event.content.includes("SECRET")) return undefined;
      log("cancelled " + event.to);
      return { cancel: true };
    });
    api.on("message_received", (event) => log("received " + event.content));
    api.on("session_start", (event) => log("session_start " + event.sessionKey));
    api.on("gateway_start", (event) => log("gateway_start " + event.port));
  },
};
`;

const BROKEN_PLUGIN = `
export function register() {
  throw new Error("broken on purpose");
}
`;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

/** Writes the two plugin modules; the guard's config names its log file and block reason. */
function writePlugins() {
  const dir = makeTempDir("pincer-plugins-");
  const guard = join(dir, "guard.mjs");
  const broken = join(dir, "broken.mjs");
  writeFileSync(guard, GUARD_PLUGIN);
  writeFileSync(broken, BROKEN_PLUGIN);
  const logFile = join(dir, "guard.log");
  writeFileSync(logFile, "");
  const plugins = {
    load: { paths: [guard, broken] },
    entries: { guard: { config: { logFile, reason: "no exec today" } } },
  };
  return { dir, logFile, plugins };
}

const logLines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

/** Polls `check` until it holds (5 s bound: generous on a loaded machine). */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("plugins in the gateway", () => {
  it("blocks exec, adds prompt context, serves a plugin tool and method; a broken plugin is reported", async () => {
    const { dir, logFile, plugins } = writePlugins();
    box = await createGatewaySandbox({ config: () => ({ plugins }) as Partial<OpenClawConfig> });
    const client = await box.connect();
    const marker = join(dir, "exec-ran");

    box.fake.toolCall("exec", { command: `touch ${marker}` }).text("exec was refused");
    const blocked = await sendChat(client, "run the command");
    expect(blocked.text).toBe("exec was refused");
    expect(existsSync(marker)).toBe(false);
    const [first, afterTool] = box.fake.chatRequests.map((request) => request.rawBody);
    expect(first).toContain("PLUGIN-CONTEXT-42");
    expect(first).toContain("PLUGIN-SYSTEM-7");
    expect(first).toContain('"weather"');
    expect(afterTool).toContain("Tool call blocked by plugin guard: no exec today");

    box.fake.toolCall("weather", { city: "Lisbon" }).text("it is sunny");
    const weather = await sendChat(client, "weather in Lisbon?");
    expect(weather.text).toBe("it is sunny");
    expect(box.fake.chatRequests.at(-1)?.rawBody).toContain("sunny in Lisbon");

    const reader = await box.connect({ scopes: ["operator.read"] });
    const answer = await reader.request("guard.status", { x: 5 });
    expect(answer).toMatchObject({ ok: true, payload: { ok: true, echo: 5 } });
    const status = await client.request("status", {});
    expect((status.payload as { plugins: unknown[] }).plugins).toEqual([
      { id: "guard", status: "loaded" },
      { id: "broken", status: "error", error: "broken on purpose" },
    ]);
    expect(logLines(logFile)).toContain(`gateway_start ${box.gw.port}`);
    expect(logLines(logFile)).toContain("session_start agent:main:main");

    const list = await createCliSandbox(box.env).run(["plugins", "list", "--json"]);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as { plugins: Array<Record<string, unknown>> };
    expect(listed.plugins.find((plugin) => plugin.id === "broken")).toMatchObject({
      status: "error",
      error: "broken on purpose",
    });
    expect(listed.plugins.find((plugin) => plugin.id === "guard")).toMatchObject({
      status: "loaded",
      tools: ["weather"],
      commands: ["ping"],
      methods: ["guard.status"],
    });
    const text = await createCliSandbox(box.env).run(["plugins", "list"]);
    expect(text.stdout).toMatch(/broken {2}error .*broken\.mjs\n {2}error: broken on purpose/);
  });

  it("answers a plugin chat command in Telegram and cancels a reply a message_sending hook refuses", async () => {
    const { logFile, plugins } = writePlugins();
    const fakeTelegram = await startFakeTelegram();
    telegram = fakeTelegram;
    const token = "111:plugin-token";
    fakeTelegram.addBot(token, { id: 111000, username: "pincer_plugin_bot" });
    box = await createGatewaySandbox({
      config: () =>
        ({
          plugins,
          channels: {
            telegram: {
              apiRoot: fakeTelegram.apiRoot,
              botToken: token,
              dmPolicy: "allowlist",
              allowFrom: ["111"],
            },
          },
        }) as Partial<OpenClawConfig>,
    });
    const sends = () =>
      fakeTelegram.callsOf("sendMessage", token).map((c) => String(c.params.text));

    fakeTelegram.pushMessage(token, privateMessage({ text: "/ping" }));
    await fakeTelegram.waitForCall(
      "sendMessage",
      (c) => String(c.params.text) === "pong from telegram",
    );
    expect(box.fake.chatRequests).toHaveLength(0);

    box.fake.text("the SECRET is out");
    fakeTelegram.pushMessage(token, privateMessage({ text: "tell me" }));
    await waitUntil(() => logLines(logFile).includes("cancelled 111"), "the cancelled reply");
    box.fake.text("nothing to hide");
    fakeTelegram.pushMessage(token, privateMessage({ text: "and now?" }));
    await fakeTelegram.waitForCall(
      "sendMessage",
      (c) => String(c.params.text) === "nothing to hide",
    );
    expect(sends().filter((text) => text.includes("SECRET"))).toEqual([]);
    expect(logLines(logFile)).toEqual(
      expect.arrayContaining(["received /ping", "received tell me", "received and now?"]),
    );
  });
});
