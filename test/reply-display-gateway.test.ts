// The session display settings over chat.send (a real WS client, the fake model): the `chat` final
// of a `/usage` session ends with the usage footer while chat.history (the transcript) keeps the
// model's text; a `/reasoning on` session's final carries the reasoning as a thinking part, off none.
import { afterEach, describe, expect, it } from "vitest";
import {
  chatEventText,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  sendChat,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function send(client: TestClient, message: string): Promise<Loose> {
  const { event } = await sendChat(client, message);
  expect(event.state).toBe("final");
  return event;
}

async function lastHistoryText(client: TestClient): Promise<string> {
  const history = await client.request("chat.history", { sessionKey: "main" });
  const messages = payloadOf(history).messages as Loose[];
  const last = messages.filter((m) => m.role === "assistant").at(-1);
  return JSON.stringify(last?.content);
}

describe("reply display settings over chat.send", () => {
  it("the chat final of a /usage session ends with the footer; chat.history keeps the model's text", async () => {
    box = await createGatewaySandbox();
    box.fake
      .text("bare", { usage: { prompt_tokens: 40, completion_tokens: 3 } })
      .text("with footer", { usage: { prompt_tokens: 1500, completion_tokens: 25 } });
    const client = await box.connect();
    expect(chatEventText(await send(client, "one"))).toBe("bare");
    expect(chatEventText(await send(client, "/usage tokens"))).toContain("set to tokens");
    const final = await send(client, "two");
    expect(chatEventText(final)).toBe("with footer\n\nUsage: 1,500 in / 25 out");
    const history = await lastHistoryText(client);
    expect(history).toContain("with footer");
    expect(history).not.toContain("Usage:");
  });

  it("a /reasoning on session's final carries the reasoning as a thinking part; off none", async () => {
    box = await createGatewaySandbox();
    box.fake
      .text("unshown", { reasoning: "private musing" })
      .text("shown", { reasoning: "public musing" });
    const client = await box.connect();
    const off = await send(client, "one");
    expect(JSON.stringify(off.message.content)).not.toContain("musing");
    await send(client, "/reasoning on");
    const on = await send(client, "two");
    expect(on.message.content).toEqual([
      { type: "thinking", thinking: "public musing" },
      { type: "text", text: "shown" },
    ]);
  });
});
