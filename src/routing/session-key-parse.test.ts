// Parsing helpers: agent keys, shapes, store/request forms, owners, delivery routes.
import { describe, expect, it } from "vitest";
import {
  classifySessionKeyShape,
  parseAgentSessionKey,
  parseSessionDeliveryRoute,
  resolveAgentIdFromSessionKey,
  toAgentRequestSessionKey,
  toAgentStoreSessionKey,
} from "./session-key-parse.js";

describe("parseAgentSessionKey", () => {
  it.each([
    ["Agent:Main:Telegram:Group:ABC", { agentId: "main", rest: "telegram:group:abc" }],
    ["agent:main:main", { agentId: "main", rest: "main" }],
    [" agent:ops:cron:job1:run:R1 ", { agentId: "ops", rest: "cron:job1:run:r1" }],
    [
      "agent:Arjun:Signal:Group:mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=",
      { agentId: "arjun", rest: "signal:group:mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=" },
    ],
    [
      "agent:a:Matrix:Channel:!RoomAbC:Matrix.org",
      { agentId: "a", rest: "matrix:channel:!RoomAbC:Matrix.org" },
    ],
    ["agent:a:signal:direct:UUID", { agentId: "a", rest: "signal:direct:uuid" }],
    ["agent::main", null],
    ["agent:main", null],
    ["agent:main:", null],
    ["agent:main::x", null],
    ["main", null],
    ["", null],
  ])("%j", (key, expected) => {
    expect(parseAgentSessionKey(key)).toEqual(expected);
  });

  it("accepts null and undefined", () => {
    expect(parseAgentSessionKey(null)).toBeNull();
    expect(parseAgentSessionKey(undefined)).toBeNull();
  });
});

describe("classifySessionKeyShape", () => {
  it.each([
    ["", "missing"],
    ["   ", "missing"],
    [null, "missing"],
    ["agent:main:main", "agent"],
    ["AGENT:Ops:Discord:Channel:1", "agent"],
    ["agent:main", "malformed_agent"],
    ["Agent::x", "malformed_agent"],
    ["global", "legacy_or_alias"],
    ["hook:0b1c", "legacy_or_alias"],
    ["main", "legacy_or_alias"],
  ])("%j → %s", (key, expected) => {
    expect(classifySessionKeyShape(key)).toBe(expected);
  });
});

describe("toAgentStoreSessionKey / toAgentRequestSessionKey", () => {
  it.each([
    [{ agentId: "ops", requestKey: "" }, "agent:ops:main"],
    [{ agentId: "ops", requestKey: null }, "agent:ops:main"],
    [{ agentId: "ops", requestKey: "main" }, "agent:ops:main"],
    [{ agentId: "Ops", requestKey: " MAIN " }, "agent:ops:main"],
    [{ agentId: "ops", requestKey: "", mainKey: "Work" }, "agent:ops:work"],
    [{ agentId: "ops", requestKey: "agent:Work:Telegram:Group:1" }, "agent:work:telegram:group:1"],
    [{ agentId: "ops", requestKey: "Discord:Channel:ABC" }, "agent:ops:discord:channel:abc"],
    [{ agentId: "ops", requestKey: "signal:group:AbC=" }, "agent:ops:signal:group:AbC="],
    [{ agentId: "ops", requestKey: "Agent:Main" }, "agent:main"],
  ])("%j → %s", (params, expected) => {
    expect(toAgentStoreSessionKey(params)).toBe(expected);
  });

  it.each([
    ["agent:main:telegram:group:1", "telegram:group:1"],
    ["Agent:Main:Main", "main"],
    ["global", "global"],
    ["  ", undefined],
    [undefined, undefined],
  ])("request form of %j is %j", (key, expected) => {
    expect(toAgentRequestSessionKey(key)).toBe(expected);
  });
});

describe("resolveAgentIdFromSessionKey", () => {
  it("reads the owner of agent keys and falls back for others (never throws)", () => {
    expect(resolveAgentIdFromSessionKey("agent:Ops:main")).toBe("ops");
    expect(resolveAgentIdFromSessionKey("global")).toBe("main");
    expect(resolveAgentIdFromSessionKey("global", "Work")).toBe("work");
    expect(resolveAgentIdFromSessionKey(undefined)).toBe("main");
    expect(resolveAgentIdFromSessionKey("agent:main")).toBe("main");
  });
});

describe("parseSessionDeliveryRoute", () => {
  it.each([
    [
      "agent:main:telegram:group:-100123:thread:42",
      { channel: "telegram", peerKind: "group", peerId: "-100123", threadId: "42" },
    ],
    [
      "agent:main:telegram:default:direct:42",
      { channel: "telegram", accountId: "default", peerKind: "direct", peerId: "42" },
    ],
    [
      "agent:main:whatsapp:direct:+1555",
      { channel: "whatsapp", peerKind: "direct", peerId: "+1555" },
    ],
    [
      "agent:main:telegram:group:-1001234567890:topic:42",
      { channel: "telegram", peerKind: "group", peerId: "-1001234567890:topic:42" },
    ],
    [
      "agent:a:matrix:channel:!RoomAbC:Matrix.org",
      { channel: "matrix", peerKind: "channel", peerId: "!RoomAbC:Matrix.org" },
    ],
    ["agent:main:main", null],
    ["agent:main:direct:42", null],
    ["agent:main:cron:job1", null],
    ["agent:main:slack:group:", null],
    ["global", null],
  ])("%j", (key, expected) => {
    expect(parseSessionDeliveryRoute(key)).toEqual(expected);
  });
});
