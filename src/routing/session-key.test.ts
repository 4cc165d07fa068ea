// Session key shapes: dmScopes, groupScope, identity links, case rules, unknown ids,
// Telegram topics and thread suffixes.
import { describe, expect, it } from "vitest";
import { normalizeChatType } from "./chat-type.js";
import {
  type BuildAgentSessionKeyParams,
  buildAgentMainSessionKey,
  buildAgentSessionKey,
  buildGroupHistoryKey,
  deriveLastRoutePolicy,
  resolveInboundLastRouteSessionKey,
} from "./session-key.js";
import {
  parseThreadSessionSuffix,
  resolveTelegramGroupPeers,
  resolveThreadSessionKeys,
} from "./session-key-thread.js";

const links = { alice: ["telegram:111111111", "discord:222222222222222222"] };
const base = { agentId: "main", channel: "whatsapp" };
const dm = (id: string) => ({ kind: "direct", id });

const KEY_CASES: Array<[string, BuildAgentSessionKeyParams, string]> = [
  ["no peer → main session", { ...base }, "agent:main:main"],
  ["DM with default dmScope → main session", { ...base, peer: dm("+1555") }, "agent:main:main"],
  ["DM per-peer", { ...base, peer: dm("+1555"), dmScope: "per-peer" }, "agent:main:direct:+1555"],
  [
    "DM per-channel-peer",
    { ...base, peer: dm("+1555"), dmScope: "per-channel-peer" },
    "agent:main:whatsapp:direct:+1555",
  ],
  [
    "DM per-account-channel-peer with account",
    { ...base, accountId: "Biz", peer: dm("+1555"), dmScope: "per-account-channel-peer" },
    "agent:main:whatsapp:biz:direct:+1555",
  ],
  [
    "DM per-account-channel-peer without account",
    { ...base, peer: dm("+1555"), dmScope: "per-account-channel-peer" },
    "agent:main:whatsapp:default:direct:+1555",
  ],
  [
    "kind dm is direct",
    { ...base, peer: { kind: "DM", id: "X" }, dmScope: "per-peer" },
    "agent:main:direct:x",
  ],
  [
    "empty DM id → unknown",
    { ...base, peer: dm(" "), dmScope: "per-peer" },
    "agent:main:direct:unknown",
  ],
  ["empty DM id under main → main", { ...base, peer: dm("") }, "agent:main:main"],
  [
    "group",
    { ...base, peer: { kind: "group", id: "ABC@g.us" } },
    "agent:main:whatsapp:group:abc@g.us",
  ],
  [
    "channel",
    { agentId: "main", channel: "Slack", peer: { kind: "channel", id: "C1" } },
    "agent:main:slack:channel:c1",
  ],
  [
    "groupScope main collapses groups",
    { ...base, peer: { kind: "group", id: "G" }, groupScope: "main" },
    "agent:main:main",
  ],
  [
    "groupScope does not affect DMs",
    { ...base, peer: dm("+1"), groupScope: "main", dmScope: "per-peer" },
    "agent:main:direct:+1",
  ],
  [
    "numeric group id",
    { agentId: "main", channel: "telegram", peer: { kind: "group", id: -1001234567890 } },
    "agent:main:telegram:group:-1001234567890",
  ],
  [
    "Signal group keeps case",
    {
      agentId: "arjun",
      channel: "signal",
      peer: { kind: "group", id: "mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=" },
    },
    "agent:arjun:signal:group:mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=",
  ],
  [
    "Signal DM is lowercased",
    { agentId: "a", channel: "signal", peer: dm("UUID-AbC"), dmScope: "per-channel-peer" },
    "agent:a:signal:direct:uuid-abc",
  ],
  [
    "Signal channel kind is lowercased",
    { agentId: "a", channel: "signal", peer: { kind: "channel", id: "AbC" } },
    "agent:a:signal:channel:abc",
  ],
  [
    "Matrix channel keeps case",
    { agentId: "a", channel: "matrix", peer: { kind: "channel", id: "!RoomAbC:Matrix.org" } },
    "agent:a:matrix:channel:!RoomAbC:Matrix.org",
  ],
  [
    "Matrix group keeps case",
    { agentId: "a", channel: "Matrix", peer: { kind: "group", id: "!Grp:Example.ORG" } },
    "agent:a:matrix:group:!Grp:Example.ORG",
  ],
  [
    "empty channel peer id → unknown",
    { agentId: "main", channel: "discord", peer: { kind: "channel", id: "" } },
    "agent:main:discord:channel:unknown",
  ],
  [
    "empty channel name → unknown",
    { agentId: "main", channel: "", peer: { kind: "group", id: "g1" } },
    "agent:main:unknown:group:g1",
  ],
  [
    "empty channel name in per-channel-peer → unknown",
    { agentId: "main", channel: "", peer: dm("x"), dmScope: "per-channel-peer" },
    "agent:main:unknown:direct:x",
  ],
  ["agent id normalized", { agentId: "My Agent!", channel: "x" }, "agent:my-agent:main"],
  ["mainKey normalized", { ...base, mainKey: " Work " }, "agent:main:work"],
  [
    "identityLinks per-peer",
    {
      agentId: "main",
      channel: "telegram",
      peer: dm("111111111"),
      dmScope: "per-peer",
      identityLinks: links,
    },
    "agent:main:direct:alice",
  ],
  [
    "identityLinks per-channel-peer",
    {
      agentId: "main",
      channel: "discord",
      peer: dm("222222222222222222"),
      dmScope: "per-channel-peer",
      identityLinks: links,
    },
    "agent:main:discord:direct:alice",
  ],
  [
    "identityLinks per-account-channel-peer",
    {
      agentId: "main",
      channel: "telegram",
      accountId: "bot",
      peer: dm("111111111"),
      dmScope: "per-account-channel-peer",
      identityLinks: links,
    },
    "agent:main:telegram:bot:direct:alice",
  ],
  [
    "identityLinks ignored under dmScope main",
    { agentId: "main", channel: "telegram", peer: dm("111111111"), identityLinks: links },
    "agent:main:main",
  ],
  [
    "identityLinks scoped id does not match another channel",
    {
      agentId: "main",
      channel: "whatsapp",
      peer: dm("111111111"),
      dmScope: "per-peer",
      identityLinks: links,
    },
    "agent:main:direct:111111111",
  ],
  [
    "identityLinks canonical is lowercased, ids compare case-insensitively",
    {
      agentId: "main",
      channel: "slack",
      peer: dm("U0ABC"),
      dmScope: "per-peer",
      identityLinks: { " Alice ": ["Slack:u0abc"] },
    },
    "agent:main:direct:alice",
  ],
  [
    "identityLinks bare id matches any channel",
    {
      agentId: "main",
      channel: "signal",
      peer: dm("+1555"),
      dmScope: "per-peer",
      identityLinks: { bob: ["+1555"] },
    },
    "agent:main:direct:bob",
  ],
  [
    "identityLinks: first canonical in object order wins (bare listed first)",
    {
      agentId: "main",
      channel: "telegram",
      peer: dm("111"),
      dmScope: "per-peer",
      identityLinks: { bob: ["111"], alice: ["telegram:111"] },
    },
    "agent:main:direct:bob",
  ],
  [
    "identityLinks: first canonical in object order wins (scoped listed first)",
    {
      agentId: "main",
      channel: "telegram",
      peer: dm("111"),
      dmScope: "per-peer",
      identityLinks: { alice: ["telegram:111"], bob: ["111"] },
    },
    "agent:main:direct:alice",
  ],
];

describe("buildAgentSessionKey", () => {
  it.each(KEY_CASES)("%s", (_name, params, expected) => {
    expect(buildAgentSessionKey(params)).toBe(expected);
  });

  it("skips blank canonicals and non-array link lists", () => {
    const identityLinks = { " ": ["telegram:1"], carol: "telegram:1", dave: ["telegram:1"] };
    const params = {
      agentId: "main",
      channel: "telegram",
      peer: dm("1"),
      dmScope: "per-peer" as const,
    };
    // A JSON config can hold a string where a list belongs; routing must not trust the type.
    const loose = identityLinks as unknown as Record<string, string[]>;
    expect(buildAgentSessionKey({ ...params, identityLinks: loose })).toBe(
      "agent:main:direct:dave",
    );
  });
});

describe("main key, group history key, last route", () => {
  it("builds the main session key", () => {
    expect(buildAgentMainSessionKey({ agentId: "Ops", mainKey: " Work " })).toBe("agent:ops:work");
    expect(buildAgentMainSessionKey({ agentId: "" })).toBe("agent:main:main");
  });

  it("builds group history keys", () => {
    const key = buildGroupHistoryKey({ channel: "Telegram", peerKind: "group", peerId: "-100ABC" });
    expect(key).toBe("telegram:default:group:-100abc");
    expect(
      buildGroupHistoryKey({
        channel: "slack",
        accountId: "Biz",
        peerKind: "channel",
        peerId: " ",
      }),
    ).toBe("slack:biz:channel:unknown");
    expect(buildGroupHistoryKey({ channel: "signal", peerKind: "group", peerId: "AbC=" })).toBe(
      "signal:default:group:AbC=",
    );
  });

  it("derives the last route policy and its session", () => {
    expect(
      deriveLastRoutePolicy({ sessionKey: "agent:a:main", mainSessionKey: "agent:a:main" }),
    ).toBe("main");
    expect(
      deriveLastRoutePolicy({ sessionKey: "agent:a:direct:1", mainSessionKey: "agent:a:main" }),
    ).toBe("session");
    const route = { lastRoutePolicy: "main" as const, mainSessionKey: "agent:a:main" };
    expect(resolveInboundLastRouteSessionKey({ route, sessionKey: "agent:a:x" })).toBe(
      "agent:a:main",
    );
    const own = { lastRoutePolicy: "session" as const, mainSessionKey: "agent:a:main" };
    expect(resolveInboundLastRouteSessionKey({ route: own, sessionKey: "agent:a:x" })).toBe(
      "agent:a:x",
    );
  });
});

describe("normalizeChatType", () => {
  it.each([
    ["direct", "direct"],
    ["DM", "direct"],
    [" Group ", "group"],
    ["channel", "channel"],
    ["thread", undefined],
    ["", undefined],
    [undefined, undefined],
    [5, undefined],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeChatType(raw)).toBe(expected);
  });
});

describe("Telegram topics", () => {
  it("embeds the topic in the peer id and passes the group as parent", () => {
    const peers = resolveTelegramGroupPeers({ chatId: -1001234567890, isForum: true, topicId: 42 });
    expect(peers).toEqual({
      peer: { kind: "group", id: "-1001234567890:topic:42" },
      parentPeer: { kind: "group", id: "-1001234567890" },
      topicId: "42",
    });
    expect(buildAgentSessionKey({ agentId: "main", channel: "telegram", peer: peers.peer })).toBe(
      "agent:main:telegram:group:-1001234567890:topic:42",
    );
  });

  it("uses the General topic (1) for forum messages without a thread id", () => {
    const peers = resolveTelegramGroupPeers({ chatId: "-100555", isForum: true });
    expect(peers.peer.id).toBe("-100555:topic:1");
    expect(peers.topicId).toBe("1");
  });

  it("ignores thread ids outside forums", () => {
    const peers = resolveTelegramGroupPeers({ chatId: "-100555", isForum: false, topicId: 7 });
    expect(peers).toEqual({ peer: { kind: "group", id: "-100555" }, parentPeer: null });
  });
});

describe("thread suffixes", () => {
  it.each([
    [
      "agent:main:slack:group:C1",
      "1234567890.123456",
      "agent:main:slack:group:C1:thread:1234567890.123456",
    ],
    ["agent:main:main", "ABC123", "agent:main:main:thread:abc123"],
    [
      "agent:main:discord:channel:123456",
      987654,
      "agent:main:discord:channel:123456:thread:987654",
    ],
  ])("%s + %s", (baseSessionKey, threadId, expected) => {
    expect(resolveThreadSessionKeys({ baseSessionKey, threadId }).sessionKey).toBe(expected);
  });

  it("returns the base key and no parent for an empty or null thread id", () => {
    const parentSessionKey = "agent:main:main";
    for (const threadId of ["", "  ", null, undefined]) {
      expect(
        resolveThreadSessionKeys({ baseSessionKey: "agent:main:main", threadId, parentSessionKey }),
      ).toEqual({
        sessionKey: "agent:main:main",
        parentSessionKey: undefined,
      });
    }
  });

  it("passes the parent through, honours useSuffix and a custom normalizer", () => {
    const baseSessionKey = "agent:main:slack:group:C1";
    expect(
      resolveThreadSessionKeys({
        baseSessionKey,
        threadId: "ts1",
        parentSessionKey: "agent:main:main",
      }),
    ).toEqual({
      sessionKey: "agent:main:slack:group:C1:thread:ts1",
      parentSessionKey: "agent:main:main",
    });
    expect(
      resolveThreadSessionKeys({ baseSessionKey, threadId: "ts1", useSuffix: false }).sessionKey,
    ).toBe(baseSessionKey);
    const keepCase = resolveThreadSessionKeys({
      baseSessionKey,
      threadId: "$Ev",
      normalizeThreadId: (id) => id,
    });
    expect(keepCase.sessionKey).toBe("agent:main:slack:group:C1:thread:$Ev");
  });

  it.each([
    [
      "agent:main:slack:group:c1:thread:123",
      { baseSessionKey: "agent:main:slack:group:c1", threadId: "123" },
    ],
    ["a:thread:1:thread:2", { baseSessionKey: "a:thread:1", threadId: "2" }],
    ["agent:main:main:THREAD:Abc", { baseSessionKey: "agent:main:main", threadId: "Abc" }],
    ["agent:main:main", { baseSessionKey: "agent:main:main", threadId: undefined }],
    ["agent:main:main:thread: ", { baseSessionKey: "agent:main:main", threadId: undefined }],
    ["", { baseSessionKey: undefined, threadId: undefined }],
  ])("parseThreadSessionSuffix(%j)", (key, expected) => {
    expect(parseThreadSessionSuffix(key)).toEqual(expected);
  });
});
