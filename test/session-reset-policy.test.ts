// Session lifecycle policies over chat.send with a real WS client, the fake model and an injected
// clock: an expired daily policy starts a new session id on the next message (the old transcript
// archived, the model sent only the new message), an idle policy not yet expired keeps the session,
// a reset trigger starts a new session holding the rest of its message, and /status names the next reset.
import { readdirSync } from "node:fs";
import { join } from "node:path";
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

const MIN = 60_000;
/** A gateway whose clock the test moves. */
async function startBox(session: OpenClawConfig["session"], extra: Partial<OpenClawConfig> = {}) {
  const clock = { t: Date.now(), now: () => clock.t };
  box = await createGatewaySandbox({ config: () => ({ ...extra, session }), options: { clock } });
  for (let i = 0; i < 8; i++) box.fake.text("ok");
  return { box, clock, client: await box.connect() };
}

async function send(client: TestClient, message: string) {
  const { event, text } = await sendChat(client, message);
  expect(event.state).toBe("final");
  return text;
}

async function sessionId(client: TestClient): Promise<string> {
  return payloadOf(await client.request("chat.history", { sessionKey: "main" })).sessionId;
}

/** The user texts of one model request. */
function userTexts(box: GatewaySandbox, index: number): string[] {
  const body = box.fake.chatRequests[index]?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return body.messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

function resetArchives(box: GatewaySandbox): string[] {
  const dir = join(box.stateDir, "agents", "main", "sessions");
  return readdirSync(dir).filter((name) => name.includes(".jsonl.reset."));
}

describe("session lifecycle policies over chat.send", () => {
  it("an expired daily policy starts a new session on the next message", async () => {
    const { box, clock, client } = await startBox({ reset: { mode: "daily", atHour: 4 } });
    await send(client, "first message");
    const first = await sessionId(client);
    // /status says when the session resets: the next 04:00 boundary.
    expect(await send(client, "/status")).toMatch(/Resets: daily at 04:00, next \d{4}-/);
    // Two days on, a boundary has passed in every time zone.
    clock.t += 48 * 60 * MIN;
    await send(client, "second message");
    const second = await sessionId(client);
    expect(second).not.toBe(first);
    expect(box.fake.chatRequests).toHaveLength(2);
    expect(userTexts(box, 1).join("\n")).toContain("second message");
    expect(userTexts(box, 1).join("\n")).not.toContain("first message");
    expect(resetArchives(box).some((name) => name.startsWith(first))).toBe(true);
    // The new session started now: the next message keeps it.
    clock.t += 5 * MIN;
    await send(client, "third message");
    expect(await sessionId(client)).toBe(second);
  });

  it("an idle policy keeps the session until the window has passed", async () => {
    const { box, clock, client } = await startBox({ reset: { mode: "idle", idleMinutes: 60 } });
    await send(client, "first message");
    const first = await sessionId(client);
    clock.t += 59 * MIN;
    await send(client, "second message");
    expect(await sessionId(client)).toBe(first);
    expect(userTexts(box, 1).join("\n")).toContain("first message");
    clock.t += 61 * MIN;
    await send(client, "third message");
    expect(await sessionId(client)).not.toBe(first);
    expect(userTexts(box, 2).join("\n")).not.toContain("second message");
  });

  it("a reset trigger starts a new session holding the rest of its message", async () => {
    const { box, client } = await startBox({ resetTriggers: ["/fresh"] });
    await send(client, "first message");
    const first = await sessionId(client);
    await send(client, "/FRESH hello again");
    const second = await sessionId(client);
    expect(second).not.toBe(first);
    expect(userTexts(box, 1)).toEqual(["hello again"]);
    // A bare trigger is answered like /new, without a model request.
    const reply = await send(client, "/fresh");
    const third = await sessionId(client);
    expect(reply).toBe(`New session started (id ${third}).`);
    expect(third).not.toBe(second);
    expect(box.fake.chatRequests).toHaveLength(2);
    // Without a policy, /status says the session never resets on its own.
    expect(await send(client, "/status")).toContain("Resets: never");
  });

  it("/new resets once: the command answers, no trigger resets again", async () => {
    const { box, client } = await startBox(undefined);
    await send(client, "first message");
    await send(client, "/new");
    expect(resetArchives(box)).toHaveLength(1);
    expect(box.fake.chatRequests).toHaveLength(1);
  });

  it("with text commands off, the default trigger /new still resets, answered without the model", async () => {
    const { box, client } = await startBox(undefined, { commands: { text: false } });
    await send(client, "first message");
    const first = await sessionId(client);
    const reply = await send(client, "/new");
    const second = await sessionId(client);
    expect(second).not.toBe(first);
    expect(reply).toBe(`New session started (id ${second}).`);
    expect(resetArchives(box)).toHaveLength(1);
    expect(box.fake.chatRequests).toHaveLength(1);
  });
});
