// Internal hooks and webhooks through the real gateway (port 0, temp state, the fake model, the fake
// Telegram): a workspace hook's `agent:bootstrap` handler changes the prompt the model receives,
// `boot-md` runs BOOT.md on start, `/new` in a Telegram DM fires `command:new` (session-memory writes
// the memory file, command-logger the JSONL log, a hook's pushed message joins the reply, a throwing
// hook is logged and skipped), and `/hooks/*` answers with the right statuses.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  chatSendAndWait,
  createGatewaySandbox,
  type GatewaySandbox,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const TOKEN = "111:main-token";
const BOT = { id: 111000, username: "pincer_main_bot" };
const HOOK_TOKEN = "hook-secret-123";

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

/** Writes a hook folder: HOOK.md naming `events`, handler.js with `body` as the handler's code. */
function writeHook(root: string, name: string, events: string[], body: string): void {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "HOOK.md"),
    `---\nname: ${name}\ndescription: test hook ${name}\nmetadata: { "openclaw": { "events": ${JSON.stringify(events)} } }\n---\n\n# ${name}\n`,
  );
  writeFileSync(join(dir, "handler.js"), `export default async (event) => {\n${body}\n};\n`);
}

/** Polls `check` until it holds (5 s bound). */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function logText(sandbox: GatewaySandbox): string {
  return sandbox.gw.core.logs.tail({ limit: 2000, maxBytes: 10_000_000 }).lines.join("\n");
}

function systemPromptOf(sandbox: GatewaySandbox, nth: number): string {
  const body = sandbox.fake.chatRequests[nth]?.body as { messages?: Array<{ content?: unknown }> };
  return JSON.stringify(body?.messages?.[0]?.content ?? "");
}

interface StartParams {
  workspace: string;
  telegram?: boolean;
  hooks?: Record<string, unknown>;
}

async function start(params: StartParams) {
  let fake: FakeTelegram | undefined;
  if (params.telegram) {
    fake = await startFakeTelegram();
    telegram = fake;
    fake.addBot(TOKEN, BOT);
  }
  box = await createGatewaySandbox({
    config: () => ({
      ...(fake
        ? {
            channels: {
              telegram: {
                apiRoot: fake.apiRoot,
                accounts: {
                  default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] },
                },
              },
            } as OpenClawConfig["channels"],
          }
        : {}),
      agents: { list: [{ id: "main", workspace: params.workspace }] },
      hooks: { internal: { enabled: true }, ...params.hooks } as OpenClawConfig["hooks"],
    }),
  });
  if (fake) await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake };
}

function sendsTo(fake: FakeTelegram, chatId: number) {
  return fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === chatId);
}

function waitForSend(fake: FakeTelegram, chatId: number, nth = 1) {
  return fake.waitForCall("sendMessage", (c) => sendsTo(fake, chatId).indexOf(c) === nth - 1);
}

function hookUrl(sandbox: GatewaySandbox, path: string): string {
  return `${sandbox.gw.url.replace("ws://", "http://")}/hooks/${path}`;
}

async function postHook(
  sandbox: GatewaySandbox,
  path: string,
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${HOOK_TOKEN}` },
) {
  const res = await fetch(hookUrl(sandbox, path), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("internal hooks through the gateway", () => {
  it("an agent:bootstrap hook changes the prompt; a throwing hook is logged and skipped", async () => {
    const workspace = makeTempDir("pincer-hooks-ws-");
    const hooks = join(workspace, "hooks");
    writeHook(hooks, "broken", ["agent:bootstrap"], `  throw new Error("broken on purpose");`);
    writeHook(
      hooks,
      "inject",
      ["agent:bootstrap"],
      `  event.context.bootstrapFiles.push({ name: "EXTRA.md", path: event.context.workspaceDir + "/EXTRA.md", content: "INJECTED-BY-HOOK " + event.context.agentId });
  event.context.bootstrapFiles = event.context.bootstrapFiles.filter((file) => file.name !== "SOUL.md");`,
    );
    const { sandbox } = await start({ workspace });
    await waitUntil(
      () => logText(sandbox).includes("Registered hook: inject -> agent:bootstrap"),
      "hooks loaded",
    );
    const client = await sandbox.connect();
    sandbox.fake.text("ok");
    await chatSendAndWait(client, { message: "hi", runId: "run-bootstrap-1" });
    const prompt = systemPromptOf(sandbox, 0);
    expect(prompt).toContain("INJECTED-BY-HOOK main");
    expect(prompt).not.toContain("## SOUL.md");
    expect(logText(sandbox)).toMatch(/hook broken \(agent:bootstrap\) failed; skipped/);
    client.close();
  });

  it("boot-md runs BOOT.md as a turn in the main session on start", async () => {
    const workspace = makeTempDir("pincer-hooks-boot-");
    writeFileSync(join(workspace, "BOOT.md"), "# Boot\n\n1. Say BOOT-CHECKLIST-42.\n");
    const { sandbox } = await start({ workspace });
    await waitUntil(() => sandbox.fake.chatRequests.length >= 1, "the boot turn's model request");
    const sent = sandbox.fake.chatRequests[0]!.rawBody;
    expect(sent).toContain("You are running a boot check. Follow BOOT.md instructions exactly.");
    expect(sent).toContain("BOOT-CHECKLIST-42");
    expect(logText(sandbox)).toContain("boot-md: running BOOT.md");
  });

  it("/new in Telegram fires command:new: memory file, command log, pushed message; a throwing hook is skipped", async () => {
    const workspace = makeTempDir("pincer-hooks-new-");
    const hooks = join(workspace, "hooks");
    writeHook(
      hooks,
      "greeter",
      ["command:new"],
      `  event.messages.push("greeter saw /" + event.action);`,
    );
    writeHook(hooks, "thrower", ["command"], `  throw new Error("thrower fails");`);
    const seen = join(workspace, "seen.log");
    writeHook(
      hooks,
      "listener",
      ["message:received", "message:sent"],
      `  const { appendFileSync } = await import("node:fs");
  appendFileSync(${JSON.stringify(seen)}, event.action + " " + event.context.channelId + " " + event.context.content + "\\n");`,
    );
    const { sandbox, fake } = await start({ workspace, telegram: true });
    const tg = fake!;
    sandbox.fake.text("the capital is Paris");
    tg.pushMessage(TOKEN, privateMessage({ text: "what is the capital of France?" }));
    await waitForSend(tg, ALICE.id, 1);
    tg.pushMessage(TOKEN, privateMessage({ text: "/new" }));
    const reply = await waitForSend(tg, ALICE.id, 2);
    expect(String(reply.params.text)).toContain("New session started");
    expect(String(reply.params.text)).toContain("greeter saw /new");
    const memoryDir = join(workspace, "memory");
    const files = readdirSync(memoryDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}\.md$/);
    const memory = readFileSync(join(memoryDir, files[0]!), "utf8");
    expect(memory).toMatch(/^# Session: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(memory).toContain("- **Session Key**: agent:main:main");
    expect(memory).toContain("- **Source**: telegram");
    expect(memory).toContain("assistant: the capital is Paris");
    expect(memory).toContain("what is the capital of France?");
    const log = join(sandbox.stateDir, "logs", "commands.log");
    const line = JSON.parse(readFileSync(log, "utf8").trim().split("\n")[0]!);
    expect(line).toMatchObject({
      action: "new",
      sessionKey: "agent:main:main",
      senderId: String(ALICE.id),
      source: "telegram",
    });
    expect(logText(sandbox)).toMatch(/hook thrower \(command:new\) failed; skipped/);
    await waitUntil(
      () => existsSync(seen) && readFileSync(seen, "utf8").includes("sent telegram New session"),
      `message hooks ran: ${existsSync(seen) ? readFileSync(seen, "utf8") : "(no file)"}`,
    );
    const heard = readFileSync(seen, "utf8");
    expect(heard).toContain("received telegram what is the capital of France?");
    expect(heard).toContain("sent telegram the capital is Paris");
  });
});

describe("webhooks through the gateway", () => {
  it("/hooks/agent with a good token runs the turn and delivers it; a bad token is 401", async () => {
    const workspace = makeTempDir("pincer-hooks-agent-");
    const { sandbox, fake } = await start({
      workspace,
      telegram: true,
      hooks: { enabled: true, token: HOOK_TOKEN },
    });
    const tg = fake!;
    const bad = await postHook(
      sandbox,
      "agent",
      { message: "x" },
      { authorization: "Bearer nope" },
    );
    expect(bad.status).toBe(401);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    sandbox.fake.text("hook reply text");
    const good = await postHook(
      sandbox,
      "agent",
      {
        message: "New email from Ada",
        name: "Email",
        channel: "telegram",
        to: String(ALICE.id),
        wakeMode: "next-heartbeat",
      },
      { "x-openclaw-token": HOOK_TOKEN },
    );
    expect(good.status).toBe(202);
    expect(good.body.ok).toBe(true);
    expect(String(good.body.runId)).toMatch(/^hook-/);
    const delivered = await waitForSend(tg, ALICE.id, 1);
    expect(String(delivered.params.text)).toContain("hook reply text");
    const sent = sandbox.fake.chatRequests[0]!.rawBody;
    expect(sent).toContain("New email from Ada");
    expect(sent).toContain("EXTERNAL_UNTRUSTED_CONTENT");
    const store = sandbox.gw.core.runtime.stores.forAgent("main");
    const keys = store.list().map((entry) => entry.key);
    expect(keys.some((key) => key.startsWith("agent:main:hook:"))).toBe(true);

    // channel "last" (the default): where the main session last talked, once Alice has written.
    sandbox.fake.text("hi Alice");
    tg.pushMessage(TOKEN, privateMessage({ text: "hello" }));
    await waitForSend(tg, ALICE.id, 2);
    sandbox.fake.text("second hook reply");
    const last = await postHook(sandbox, "agent", { message: "ping", wakeMode: "next-heartbeat" });
    expect(last.status).toBe(202);
    const routed = await waitForSend(tg, ALICE.id, 3);
    expect(String(routed.params.text)).toContain("second hook reply");
    const foreign = await postHook(sandbox, "agent", { message: "x", sessionKey: "hook:mine" });
    expect(foreign.status).toBe(400);
    expect(String(foreign.body.error)).toContain("hooks.allowRequestSessionKey");
  });

  it("/hooks/wake queues a system event that the heartbeat it wakes reads; oversize is 413, bad JSON 400", async () => {
    const workspace = makeTempDir("pincer-hooks-wake-");
    const { sandbox } = await start({
      workspace,
      hooks: { enabled: true, token: HOOK_TOKEN, maxBodyBytes: 1024 },
    });
    sandbox.fake.text("HEARTBEAT_OK");
    const woke = await postHook(sandbox, "wake", { text: "New email received", mode: "now" });
    expect(woke).toEqual({ status: 200, body: { ok: true, mode: "now" } });
    await waitUntil(() => sandbox.fake.chatRequests.length === 1, "the heartbeat's model request");
    expect(sandbox.fake.chatRequests[0]!.rawBody).toContain("System: New email received");
    const big = await postHook(sandbox, "wake", { text: "x".repeat(2000) });
    expect(big.status).toBe(413);
    const broken = await postHook(sandbox, "wake", "{not json");
    expect(broken.status).toBe(400);
    expect(String(broken.body.error)).toContain("invalid JSON body");
    const empty = await postHook(sandbox, "wake", { mode: "now" });
    expect(empty).toEqual({
      status: 400,
      body: { ok: false, error: "text is required (a non-empty string)" },
    });
  });
});
