// iMessage (imsg bridge) end to end: the real gateway starts `cliPath rpc --db <dbPath>` — here
// the fake imsg (test/helpers/fake-imsg.ts), whose JSON-RPC this test answers — subscribes to new
// messages, hands a DM to the agent and replies by `send` to the sender's handle; a group chat's
// reply goes by chat_id; our own messages are ignored; after the process dies the account restarts
// and resumes after the last message handed on (since_rowid), so nothing is answered twice.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeImsg, startFakeImsg } from "./helpers/fake-imsg.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

const ALICE = "+15557654321";

let box: GatewaySandbox | undefined;
let imsg: FakeImsg | undefined;
afterEach(async () => {
  await box?.close();
  await imsg?.close();
  box = undefined;
  imsg = undefined;
});

function message(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 1,
    chat_id: 3,
    guid: "msg-1",
    sender: "+1 (555) 765-4321",
    is_from_me: false,
    text: "hello",
    created_at: "2026-12-03T10:00:00Z",
    attachments: [],
    is_group: false,
    ...extra,
  };
}

async function start() {
  const fake = await startFakeImsg();
  imsg = fake;
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        imessage: {
          cliPath: fake.cliPath,
          dbPath: "/Users/me/Library/Messages/chat.db",
          dmPolicy: "open",
          allowFrom: ["*"],
          groupPolicy: "open",
          groups: { "*": { requireMention: false } },
        },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitFor("watch.subscribe");
  return { sandbox: box, fake };
}

describe("iMessage (imsg) through the gateway", () => {
  it("answers a DM by send to the handle, ignores our own messages, and replies to a group by chat_id", async () => {
    const { sandbox, fake } = await start();
    expect(fake.starts[0]).toEqual(["rpc", "--db", "/Users/me/Library/Messages/chat.db"]);
    expect((await fake.waitFor("watch.subscribe")).params).toEqual({ attachments: true });

    fake.push(message({ id: 4, guid: "mine", is_from_me: true, text: "note to self" }));
    sandbox.fake.text("Hi Alice");
    fake.push(message({ id: 5, guid: "msg-5" }));
    const sent = await fake.waitFor("send");
    expect(sent.params).toEqual({ to: ALICE, text: "Hi Alice", service: "auto", region: "US" });
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    expect(JSON.stringify(sandbox.fake.chatRequests[0]?.body)).not.toContain("note to self");

    sandbox.fake.text("Noon works");
    fake.push(
      message({
        id: 6,
        guid: "msg-6",
        chat_id: 42,
        is_group: true,
        chat_name: "Lunch",
        participants: [ALICE, "bob@example.com"],
        text: "lunch at noon?",
      }),
    );
    const group = await fake.waitFor("send", 2);
    expect(group.params).toEqual({ chat_id: 42, text: "Noon works" });
    const stores = sandbox.gw.core.runtime.stores.forAgent("main");
    expect(stores.get("agent:main:imessage:group:chat_id:42")).toBeDefined();
  });

  it("restarts after imsg dies and resumes after the last message handed on", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake.text("First answer");
    fake.push(message({ id: 9, guid: "msg-9" }));
    await fake.waitFor("send");
    const cursor = join(sandbox.stateDir, "channels", "imessage", "default", "cursor.json");
    expect(await waitForCursor(cursor)).toEqual({ sinceRowid: 9 });

    fake.crash();
    const again = await fake.waitFor("watch.subscribe", 2);
    expect(again.params).toEqual({ attachments: true, since_rowid: 9 });
    expect(fake.starts).toHaveLength(2);
    sandbox.fake.text("Second answer");
    fake.push(message({ id: 10, guid: "msg-10", text: "still there?" }));
    expect((await fake.waitFor("send", 2)).params).toMatchObject({ text: "Second answer" });
    expect(sandbox.fake.chatRequests).toHaveLength(2);
  });
});

async function waitForCursor(path: string): Promise<unknown> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return JSON.parse(readFileSync(path, "utf8"));
    } catch {
      if (Date.now() > deadline) throw new Error(`no cursor at ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
