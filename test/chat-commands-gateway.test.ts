// In-chat commands over chat.send with a real WS client and the fake model: answered locally (no
// request reaches the model), /new starts a new session id whose next turn has an empty history,
// /stop aborts a turn the model is still streaming, /compact shrinks a long session, an unknown
// /word and any command with `commands.text: false` go to the model as text.
import { afterEach, describe, expect, it } from "vitest";
import {
  chatEventText,
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

/** Sends a chat.send and resolves with its `chat` final (or aborted/error) event payload. */
async function send(client: TestClient, message: string) {
  const { runId, ack, event } = await sendChat(client, message);
  return { runId, ack, event };
}

const replyText = chatEventText;

/** The user/assistant texts of one chat-completions request's messages. */
function promptMessages(box: GatewaySandbox, index: number): Array<{ role: string }> {
  const body = box.fake.chatRequests[index]?.body as { messages: Array<{ role: string }> };
  return body.messages.filter((m) => m.role === "user" || m.role === "assistant");
}

describe("chat commands over chat.send", () => {
  it("/status, /help, /whoami and /context are answered without a model request", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const status = await send(client, "/status");
    expect(status.ack).toEqual({ runId: status.runId, status: "started" });
    expect(status.event).toMatchObject({ state: "final", command: "status" });
    const text = replyText(status.event);
    expect(text).toContain("Agent: main");
    expect(text).toContain("Model: fake/m1");
    expect(text).toContain("Session: agent:main:main");
    expect(text).toMatch(/Time: \d{4}-\d\d-\d\dT/);
    expect(replyText((await send(client, "/HELP")).event)).toContain("/status");
    expect(replyText((await send(client, "/id")).event)).toContain("Your id: test");
    const context = replyText((await send(client, "/context list")).event);
    expect(context).toContain("Context for agent main, session agent:main:main");
    expect(context).toContain("AGENTS.md");
    const detail = replyText((await send(client, "/context detail")).event);
    expect(detail.length).toBeLessThanOrEqual(4000);
    // `/context json` is `pincer context --json` in a code block, cut to a chat message.
    const json = replyText((await send(client, "/context json")).event);
    expect(json).toMatch(/^```\n\{\n {2}"agentId": "main",\n {2}"sessionKey": "agent:main:main",/);
    expect(json.length).toBeLessThanOrEqual(4000);
    expect(json).toMatch(/```(\n… \(cut: `pincer context --json` shows all\))?$/);
    expect(replyText((await send(client, "/context nope")).event)).toContain("Usage:");
    expect(box.fake.chatRequests).toHaveLength(0);
    // A retry of the same idempotency key is answered from the dedupe, not run again.
    const again = await client.request("chat.send", {
      sessionKey: "main",
      message: "/status",
      idempotencyKey: status.runId,
    });
    expect(payloadOf(again)).toMatchObject({ status: "ok", command: "status" });
  });

  it("/new starts a new session id and the next turn has an empty history; /new <unknown model> refuses", async () => {
    box = await createGatewaySandbox();
    box.fake.text("first answer").text("after reset");
    const client = await box.connect();
    await send(client, "remember the word apple");
    const store = box.gw.core.runtime.stores.forAgent("main");
    const before = store.get("agent:main:main")?.sessionId;
    expect(before).toBeDefined();
    const refused = await send(client, "/new opus");
    expect(replyText(refused.event)).toContain("nothing was reset");
    expect(store.get("agent:main:main")?.sessionId).toBe(before);
    const fresh = await send(client, "/new");
    const after = store.get("agent:main:main")?.sessionId;
    expect(after).not.toBe(before);
    expect(replyText(fresh.event)).toContain(after);
    await send(client, "what was the word?");
    expect(box.fake.chatRequests).toHaveLength(2);
    expect(promptMessages(box, 1)).toHaveLength(1);
    expect(JSON.stringify(box.fake.chatRequests[1]?.body)).not.toContain("apple");
  });

  it("/stop aborts a turn the model is still streaming", async () => {
    box = await createGatewaySandbox();
    box.fake.text("a very long answer that keeps going", { chunks: 40, delayMs: 100 });
    const client = await box.connect();
    await client.request("chat.send", {
      sessionKey: "main",
      message: "tell me a long story",
      idempotencyKey: "long-1",
    });
    await client.waitFor(
      (f) =>
        f.event === "chat" && payloadOf(f).runId === "long-1" && payloadOf(f).state === "delta",
    );
    const stop = await send(client, "/stop");
    expect(replyText(stop.event)).toContain("Stopped the running turn");
    const aborted = await client.waitFor(
      (f) =>
        f.event === "chat" && payloadOf(f).runId === "long-1" && payloadOf(f).state !== "delta",
    );
    expect(payloadOf(aborted).state).toBe("aborted");
    expect(replyText((await send(client, "/stop")).event)).toBe("Nothing is running.");
  });

  it("/compact shrinks a long session and says the sizes before and after", async () => {
    box = await createGatewaySandbox();
    const long = "word ".repeat(400);
    for (let i = 0; i < 4; i++) box.fake.text(`answer ${i}: ${long}`);
    box.fake.text("short summary");
    const client = await box.connect();
    for (let i = 0; i < 4; i++) await send(client, `question ${i}: ${long}`);
    const compact = await send(client, "/compact");
    const text = replyText(compact.event);
    const sizes =
      /Compacted: (\d+) messages \(([\d.]+k?) chars\) → (\d+) messages? \(([\d.]+k?) chars\)/.exec(
        text,
      );
    expect(sizes, text).not.toBeNull();
    const chars = (value: string) =>
      value.endsWith("k") ? Number(value.slice(0, -1)) * 1000 : Number(value);
    expect(chars(sizes![4]!)).toBeLessThan(chars(sizes![2]!));
    expect(box.fake.chatRequests).toHaveLength(5);
    // The context report counts the history a run sends now: the summary and what it kept.
    const context = replyText((await send(client, "/context list")).event);
    expect(/History .* (\d+) messages?/.exec(context)?.[1]).toBe(sizes![3]);
  });

  it("/compact <instructions> hands the user's instructions to the summary request", async () => {
    box = await createGatewaySandbox();
    const long = "word ".repeat(400);
    for (let i = 0; i < 3; i++) box.fake.text(`answer ${i}: ${long}`);
    box.fake.text("summary kept the numbers");
    const client = await box.connect();
    for (let i = 0; i < 3; i++) await send(client, `question ${i}: ${long}`);
    const compact = await send(client, "/compact keep every number exactly");
    expect(replyText(compact.event)).toContain("summarized with your instructions");
    expect(box.fake.chatRequests).toHaveLength(4);
    expect(JSON.stringify(box.fake.chatRequests[3]?.body)).toContain("keep every number exactly");
    expect(JSON.stringify(box.fake.chatRequests[2]?.body)).not.toContain("keep every number");
  });

  it("an unknown /foo and, with commands.text false, /status go to the model as text", async () => {
    box = await createGatewaySandbox({ config: () => ({ commands: { text: false } }) });
    box.fake.text("model saw foo").text("model saw status");
    const client = await box.connect();
    const foo = await send(client, "/foo bar");
    expect(replyText(foo.event)).toBe("model saw foo");
    const status = await send(client, "/status");
    expect(replyText(status.event)).toBe("model saw status");
    expect(box.fake.chatRequests).toHaveLength(2);
    expect(JSON.stringify(box.fake.chatRequests[1]?.body)).toContain("/status");
  });

  it("emits a typed command event for each handled command", async () => {
    box = await createGatewaySandbox();
    const events: Array<Record<string, unknown>> = [];
    box.gw.core.channels.commandEvents.subscribe((event) => events.push({ ...event }));
    const client = await box.connect();
    await send(client, "/new");
    await send(client, "/stop");
    expect(events.map((e) => e.action)).toEqual(["new", "stop"]);
    expect(events[0]).toMatchObject({
      type: "command",
      sessionKey: "agent:main:main",
      agentId: "main",
      channel: "webchat",
      senderId: "test",
    });
    expect(events[0]?.sessionId).toBeDefined();
  });
});
