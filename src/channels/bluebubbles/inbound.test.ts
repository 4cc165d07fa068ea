import { describe, expect, it } from "vitest";
import { toBlueBubblesInbound } from "./inbound.js";
import { resolveBlueBubblesSettings } from "./settings.js";

const convert = (body: unknown) =>
  toBlueBubblesInbound({ body, accountId: "default", now: () => 42 });

const message = (data: Record<string, unknown>) => ({
  type: "new-message",
  data: {
    guid: "g-1",
    text: "hi",
    handle: { address: "+1 (555) 765-4321" },
    chats: [{ guid: "iMessage;-;+15557654321" }],
    isFromMe: false,
    ...data,
  },
});

describe("toBlueBubblesInbound", () => {
  it("a DM by handle (E.164 or lowercased email), a group by chat GUID, replies by originator", () => {
    expect(convert(message({}))).toMatchObject({
      kind: "inbound",
      chatGuid: "iMessage;-;+15557654321",
      inbound: { messageId: "g-1", peer: { kind: "direct", id: "+15557654321" }, timestamp: 42 },
    });
    const group = convert(
      message({
        handle: { address: "Bob@Example.com" },
        chats: [{ guid: "iMessage;+;chat99", displayName: "Team" }],
        threadOriginatorGuid: "g-0",
      }),
    );
    expect(group).toMatchObject({
      kind: "inbound",
      inbound: {
        peer: { kind: "group", id: "iMessage;+;chat99" },
        peerName: "Team",
        sender: { id: "bob@example.com" },
        replyTo: { id: "g-0" },
      },
    });
  });

  it("ignores our own messages, tapbacks and other events; names a missing field", () => {
    expect(convert(message({ isFromMe: true })).kind).toBe("ignored");
    expect(convert(message({ associatedMessageGuid: "g-0" })).kind).toBe("ignored");
    expect(convert({ type: "updated-message", data: {} }).kind).toBe("ignored");
    expect(convert(message({ handle: {} }))).toMatchObject({
      kind: "invalid",
      reason: "data.handle.address missing",
    });
    expect(convert(message({ chats: [] }))).toMatchObject({ kind: "invalid" });
  });
});

describe("resolveBlueBubblesSettings", () => {
  it("needs serverUrl and password, naming them; named accounts get their own webhook path", () => {
    expect(resolveBlueBubblesSettings({ config: {}, env: {}, accountId: "work" })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /channels\.bluebubbles\.accounts\.work\.serverUrl.*channels\.bluebubbles\.accounts\.work\.password/,
      ),
    });
    const ok = resolveBlueBubblesSettings({
      config: { serverUrl: "http://mac:1234/", password: { source: "env", id: "BB_PW" } },
      env: { BB_PW: "pw" },
      accountId: "work",
    });
    expect(ok).toMatchObject({
      ok: true,
      settings: {
        serverUrl: "http://mac:1234",
        password: "pw",
        webhookPath: "/bluebubbles-webhook/work",
      },
    });
  });
});
