// Per-session overrides set from the chat and honoured by the next run, over chat.send with a real
// WS client and the fake model: /think stores the thinking level and the next request carries it as
// the reasoning effort; /model and /new <model> switch the model the next request names, checked
// against the agent's models and policy; a refused value stores nothing.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  sendChat,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** Sends a chat.send and resolves with the text of its `chat` final event. */
const send = async (client: TestClient, message: string) => (await sendChat(client, message)).text;

/** The fake provider with reasoning models (m1, m2 with a 64k window) and a plain one (plain). */
function reasoningModels(baseUrl: string): Partial<OpenClawConfig> {
  const model = (id: string, reasoning: boolean) => ({
    id,
    name: id,
    reasoning,
    contextWindow: id === "m2" ? 64000 : 32000,
    maxTokens: 1024,
  });
  return {
    models: {
      mode: "merge",
      providers: {
        fake: {
          baseUrl,
          apiKey: "sk-test",
          api: "openai-completions",
          models: [model("m1", true), model("m2", true), model("plain", false)],
        },
      },
    },
  };
}

function requestBody(box: GatewaySandbox, index: number): Record<string, unknown> {
  return box.fake.chatRequests[index]?.body as Record<string, unknown>;
}

function entry(box: GatewaySandbox) {
  return box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
}

describe("per-session overrides over chat.send", () => {
  it("/think stores the level and the next run sends it as the reasoning effort", async () => {
    box = await createGatewaySandbox({ config: reasoningModels });
    box.fake.text("before").text("after").text("cleared");
    const client = await box.connect();
    await send(client, "hello");
    expect(requestBody(box, 0).reasoning_effort).toBeUndefined();
    expect(await send(client, "/think")).toContain("Thinking level: default");
    expect(await send(client, "/think HIGH")).toContain("set to high");
    expect(entry(box)?.thinkingLevel).toBe("high");
    expect(await send(client, "/status")).toContain("Thinking: high");
    expect(await send(client, "/think")).toContain("Thinking level: high");
    await send(client, "think hard");
    expect(requestBody(box, 1).reasoning_effort).toBe("high");
    await send(client, "/think default");
    expect(entry(box)?.thinkingLevel).toBeUndefined();
    await send(client, "again");
    expect(requestBody(box, 2).reasoning_effort).toBeUndefined();
    expect(box.fake.chatRequests).toHaveLength(3);
  });

  it("the agent's thinkingDefault applies while the session sets no level; /think overrides it", async () => {
    box = await createGatewaySandbox({
      config: (baseUrl) => ({
        ...reasoningModels(baseUrl),
        agents: { defaults: { thinkingDefault: "low" } },
      }),
    });
    box.fake.text("a").text("b").text("c");
    const client = await box.connect();
    await send(client, "first");
    expect(requestBody(box, 0).reasoning_effort).toBe("low");
    await send(client, "/think high");
    await send(client, "second");
    expect(requestBody(box, 1).reasoning_effort).toBe("high");
    await send(client, "/think off");
    await send(client, "third");
    expect(requestBody(box, 2).reasoning_effort).toBeUndefined();
  });

  it("an inline /think directive applies to its own message only and the model gets the text after it", async () => {
    box = await createGatewaySandbox({ config: reasoningModels });
    box.fake.text("deep").text("plain");
    const client = await box.connect();
    await send(client, "/think low");
    expect(await send(client, "/think high what is 2+2?")).toBe("deep");
    const body = requestBody(box, 0);
    expect(body.reasoning_effort).toBe("high");
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    expect(JSON.stringify(messages.at(-1)?.content)).toContain("what is 2+2?");
    expect(JSON.stringify(messages)).not.toContain("/think");
    expect(entry(box)?.thinkingLevel).toBe("low");
    await send(client, "next");
    expect(requestBody(box, 1).reasoning_effort).toBe("low");
  });

  it("a level set by sessions.patch is honoured too; an unknown level is refused and nothing stored", async () => {
    box = await createGatewaySandbox({ config: reasoningModels });
    box.fake.text("one");
    const client = await box.connect();
    await send(client, "/think low");
    const refused = await send(client, "/think ultra");
    expect(refused).toContain('Unknown thinking level "ultra"');
    expect(refused).toContain("off, minimal, low, medium, high, xhigh");
    expect(entry(box)?.thinkingLevel).toBe("low");
    const patched = await client.request("sessions.patch", {
      key: "main",
      thinkingLevel: "minimal",
    });
    expect(patched.ok).toBe(true);
    await send(client, "go");
    expect(requestBody(box, 0).reasoning_effort).toBe("minimal");
  });

  it("/model shows, lists and switches the model; the next request names it; refusals store nothing", async () => {
    box = await createGatewaySandbox({
      config: (baseUrl) => ({
        ...reasoningModels(baseUrl),
        agents: {
          defaults: { models: { "fake/m1": { alias: "one" }, "fake/m2": { alias: "two" } } },
        },
      }),
    });
    box.fake.text("on m1").text("on m2").text("patched").text("fresh");
    const client = await box.connect();
    await send(client, "hi");
    expect(requestBody(box, 0).model).toBe("m1");
    expect(await send(client, "/model")).toContain("Model: fake/m1 (the agent's default)");
    const list = await send(client, "/model list");
    expect(list).toContain("fake/m1 (alias one)");
    expect(list).toContain("fake/m2 (alias two)");
    expect(list).not.toContain("plain");
    expect(await send(client, "/model fake/plain")).toContain("not one of this agent's models");
    expect(await send(client, "/model fake/nope")).toContain("Model not changed");
    expect(await send(client, "/model fake/m2@work")).toContain(`no auth profile "work"`);
    expect(entry(box)?.modelOverride).toBeUndefined();
    expect(await send(client, "/model two")).toContain("Model set to fake/m2");
    expect(entry(box)).toMatchObject({ providerOverride: "fake", modelOverride: "m2" });
    const status = await send(client, "/status");
    expect(status).toContain("Model: fake/m2");
    expect(status).toContain("/ 64.0k tokens");
    await send(client, "now?");
    expect(requestBody(box, 1).model).toBe("m2");
    // sessions.patch {model} (a ref or an alias) is what the next run uses too.
    const patched = await client.request("sessions.patch", { key: "main", model: "one" });
    expect(patched.ok).toBe(true);
    await send(client, "patched?");
    expect(requestBody(box, 2).model).toBe("m1");
    // /new <model>: a refused model resets nothing; an allowed one starts the new session on it.
    const before = entry(box)?.sessionId;
    expect(await send(client, "/new bogus")).toContain("nothing was reset");
    expect(entry(box)?.sessionId).toBe(before);
    const fresh = await send(client, "/new two");
    expect(fresh).toContain("Model: fake/m2");
    expect(entry(box)?.sessionId).not.toBe(before);
    await send(client, "fresh?");
    expect(requestBody(box, 3).model).toBe("m2");
    expect(box.fake.chatRequests).toHaveLength(4);
  });

  it("the model policy refuses a forbidden choice; a stored override it forbids fails the run", async () => {
    box = await createGatewaySandbox({
      config: (baseUrl) => ({
        ...reasoningModels(baseUrl),
        agents: { defaults: { modelPolicy: { forbid: ["fake/m2"], onMismatch: "fail" } } },
      }),
    });
    box.fake.text("plain answer");
    const client = await box.connect();
    expect(await send(client, "/model fake/m2")).toContain("forbidden by modelPolicy");
    expect(await send(client, "/model list")).not.toContain("fake/m2");
    expect(await send(client, "/model fake/plain")).toContain("Model set to fake/plain");
    await send(client, "hello");
    expect(requestBody(box, 0).model).toBe("plain");
    // An override stored behind the commands' back is checked by the run itself (fail closed).
    box.gw.core.runtime.stores
      .forAgent("main")
      .annotate("agent:main:main", { providerOverride: undefined, modelOverride: "fake/m2" });
    const runId = "ov-forbidden";
    await client.request("chat.send", { sessionKey: "main", message: "x", idempotencyKey: runId });
    const failed = await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === runId && payloadOf(f).state !== "delta",
    );
    expect(payloadOf(failed).state).toBe("error");
    expect(JSON.stringify(payloadOf(failed))).toContain("forbidden by modelPolicy");
    expect(box.fake.chatRequests).toHaveLength(1);
  });

  it("/verbose, /reasoning and /queue store their values, refuse unknown ones and never call the model", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const verbose = await send(client, "/verbose on");
    expect(verbose).toContain("Verbose set to on");
    expect(verbose).toContain("each tool call is sent here as a short message before the reply");
    expect(await send(client, "/reasoning stream")).toContain("Reasoning set to stream");
    expect(await send(client, "/reasoning loud")).toContain("Valid: on, off, stream");
    expect(entry(box)).toMatchObject({ verboseLevel: "on", reasoningLevel: "stream" });
    const set = await send(client, "/queue collect debounce:2s cap:5 drop:new");
    expect(set).toContain("mode collect, debounce 2000ms, cap 5, drop new");
    expect(entry(box)).toMatchObject({
      queueMode: "collect",
      queueDebounceMs: 2000,
      queueCap: 5,
      queueDrop: "new",
    });
    expect(await send(client, "/queue sideways")).toContain('Unknown queue mode "sideways"');
    expect(await send(client, "/queue steer cap:0")).toContain('Bad cap "0"');
    expect(entry(box)?.queueMode).toBe("collect");
    // /status reads the mode through the same settings resolution the lane queue uses.
    expect(await send(client, "/status")).toContain("Queue: collect");
    await send(client, "/queue default");
    expect(entry(box)?.queueMode).toBeUndefined();
    expect(await send(client, "/verbose")).toContain("Verbose: on");
    expect(box.fake.chatRequests).toHaveLength(0);
  });
});
