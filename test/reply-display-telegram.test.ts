// The session display settings over the fake Telegram Bot API through the real gateway and the fake
// model: `/usage tokens|full` ends every reply with a usage footer the transcript never holds (and
// `messages.responseUsage` is the default); `/verbose on|full` sends each tool call (and its result)
// as a message of its own before the reply, once; `/reasoning on` sends the model's reasoning before
// the reply; off sends none of it.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

const TOKEN = "121:display-token";
const BOT = { id: 121000, username: "pincer_display_bot" };
const SESSION = "agent:main:main";

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

/** The fake provider's m1 with a cost table (USD per million tokens). */
function pricedModels(baseUrl: string): OpenClawConfig["models"] {
  const cost = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
  const model = { id: "m1", name: "m1", contextWindow: 32000, maxTokens: 1024, cost };
  return {
    mode: "merge",
    providers: {
      fake: { baseUrl, apiKey: "sk-test", api: "openai-completions", models: [model] },
    },
  };
}

async function start(extra: Partial<OpenClawConfig> = {}) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, BOT);
  box = await createGatewaySandbox({
    config: (baseUrl) => ({
      models: pricedModels(baseUrl),
      ...extra,
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          accounts: { default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] } },
        },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake };
}

/** Every text the bot sent to Alice, in order. */
function sentTexts(fake: FakeTelegram): string[] {
  return fake
    .callsOf("sendMessage", TOKEN)
    .filter((c) => Number(c.params.chat_id) === ALICE.id)
    .map((c) => String(c.params.text));
}

/** Sends a DM and resolves once the bot has sent `total` messages to Alice in all. */
async function say(fake: FakeTelegram, text: string, total: number): Promise<string[]> {
  fake.pushMessage(TOKEN, privateMessage({ text }));
  await fake.waitForCall("sendMessage", () => sentTexts(fake).length >= total);
  return sentTexts(fake);
}

function transcriptText(sandbox: GatewaySandbox): string {
  const file = sandbox.gw.core.runtime.stores.forAgent("main").transcriptPath(SESSION);
  if (!file) throw new Error("the DM session has no transcript");
  return readFileSync(file, "utf8");
}

describe("reply display settings over Telegram", () => {
  it("/usage tokens and full end each reply with a footer the transcript never holds; off ends it", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake
      .text("plain answer", { usage: { prompt_tokens: 1234, completion_tokens: 56 } })
      .text("counted answer", { usage: { prompt_tokens: 1234, completion_tokens: 56 } })
      .text("full answer", {
        usage: { prompt_tokens: 2334, completion_tokens: 56, cached_tokens: 1100 },
      })
      .text("quiet answer");
    expect((await say(fake, "first", 1)).at(-1)).toBe("plain answer");
    expect((await say(fake, "/usage tokens", 2)).at(-1)).toContain("Usage footer set to tokens");
    expect((await say(fake, "second", 3)).at(-1)).toBe(
      "counted answer\n\nUsage: 1,234 in / 56 out",
    );
    expect(sandbox.gw.core.runtime.stores.forAgent("main").get(SESSION)?.responseUsage).toBe(
      "tokens",
    );
    await say(fake, "/usage full", 4);
    const full = (await say(fake, "third", 5)).at(-1)!;
    // 1234 in × $3 + 56 out × $15 + 1100 cache read × $0.30, per million tokens.
    expect(full).toBe(
      "full answer\n\nUsage: 1,234 in / 56 out · cache 1,100 read / 0 write · fake/m1 · $0.0049",
    );
    expect((await say(fake, "/status", 6)).at(-1)).toContain("Usage: full");
    await say(fake, "/usage off", 7);
    expect((await say(fake, "fourth", 8)).at(-1)).toBe("quiet answer");
    // The model's own text is what the session keeps: no footer is ever fed back to it.
    const transcript = transcriptText(sandbox);
    expect(transcript).toContain("counted answer");
    expect(transcript).not.toContain("Usage:");
    const lastRequest = JSON.stringify(sandbox.fake.chatRequests.at(-1)?.body?.messages);
    expect(lastRequest).toContain("full answer");
    expect(lastRequest).not.toContain("Usage:");
  });

  it("messages.responseUsage is the default of a session that sets none; /usage overrides it", async () => {
    const { sandbox, fake } = await start({ messages: { responseUsage: "tokens" } });
    sandbox.fake
      .text("by default", { usage: { prompt_tokens: 10, completion_tokens: 2 } })
      .text("overridden");
    expect((await say(fake, "hi", 1)).at(-1)).toBe("by default\n\nUsage: 10 in / 2 out");
    expect((await say(fake, "/usage", 2)).at(-1)).toContain("Usage footer: tokens (default)");
    await say(fake, "/usage off", 3);
    expect((await say(fake, "again", 4)).at(-1)).toBe("overridden");
  });

  it("/verbose on sends each tool call before the reply, once; full adds its result; off none", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake
      .toolCall("read", { path: "missing-one.txt" })
      .text("read it")
      .toolCall("read", { path: "missing-two.txt" })
      .text("read again")
      .toolCall("read", { path: "missing-three.txt" })
      .text("read quietly");
    expect((await say(fake, "/verbose on", 1)).at(-1)).toContain(
      "each tool call is sent here as a short message before the reply",
    );
    const on = await say(fake, "read the first file", 3);
    expect(on.slice(1)).toEqual(["🛠️ read: <code>missing-one.txt</code>", "read it"]);

    await say(fake, "/verbose full", 4);
    const full = await say(fake, "read the second file", 7);
    expect(full[4]).toBe("🛠️ read: <code>missing-two.txt</code>");
    expect(full[5]).toMatch(/^⚠️ read failed:\n<pre><code>[\s\S]*missing-two\.txt/);
    expect(full[6]).toBe("read again");

    await say(fake, "/verbose off", 8);
    const off = await say(fake, "read the third file", 9);
    expect(off.at(-1)).toBe("read quietly");
    expect(sentTexts(fake)).toHaveLength(9);
    // Tool messages are display only: the session keeps the model's turn.
    expect(transcriptText(sandbox)).not.toContain("🛠️");
  });

  it("agents.defaults.verboseDefault applies while the session sets none", async () => {
    const { sandbox, fake } = await start({ agents: { defaults: { verboseDefault: "on" } } });
    sandbox.fake.toolCall("ls", { path: "." }).text("listed");
    const texts = await say(fake, "list", 2);
    expect(texts).toEqual(["🛠️ ls: <code>.</code>", "listed"]);
  });

  it("/reasoning on sends the model's reasoning before the reply; off never shows it", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake
      .text("hidden thoughts", { reasoning: "The user greets me.\nI greet back." })
      .text("shown thoughts", { reasoning: "Think it over first." })
      .text("streamed thoughts", { reasoning: "Streamed as on." });
    expect((await say(fake, "hello", 1)).at(-1)).toBe("hidden thoughts");
    await say(fake, "/reasoning on", 2);
    const on = await say(fake, "hello again", 4);
    expect(on.slice(2)).toEqual(["Reasoning:\n<i>Think it over first.</i>", "shown thoughts"]);
    const stream = (await say(fake, "/reasoning stream", 5)).at(-1)!;
    expect(stream).toContain("cannot edit a draft");
    const streamed = await say(fake, "once more", 7);
    expect(streamed.slice(5)).toEqual(["Reasoning:\n<i>Streamed as on.</i>", "streamed thoughts"]);
    expect(sentTexts(fake).join("\n")).not.toContain("greets");
  });
});
