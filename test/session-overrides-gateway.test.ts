// Per-session overrides set from the chat and honoured by the next run, over chat.send with a real
// WS client and the fake model: /think stores the thinking level and the next request carries it as
// the reasoning effort; a bad level is refused with the valid ones named and nothing is stored.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

let next = 0;

/** Sends a chat.send and resolves with the text of its `chat` final event. */
async function send(client: TestClient, message: string): Promise<string> {
  const runId = `ov-${++next}`;
  const ack = await client.request("chat.send", {
    sessionKey: "main",
    message,
    idempotencyKey: runId,
  });
  expect(ack.ok).toBe(true);
  const final = await client.waitFor(
    (f) =>
      f.event === "chat" &&
      payloadOf(f).runId === runId &&
      ["final", "aborted", "error"].includes(payloadOf(f).state),
  );
  const content = payloadOf(final).message?.content as Array<{ text: string }> | undefined;
  return content?.map((part) => part.text).join("") ?? "";
}

/** The fake provider with reasoning models (m1, m2) and a plain one (plain). */
function reasoningModels(baseUrl: string): Partial<OpenClawConfig> {
  const model = (id: string, reasoning: boolean) => ({
    id,
    name: id,
    reasoning,
    contextWindow: 32000,
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
});
