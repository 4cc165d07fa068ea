import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../types.js";
import {
  compileMentionPatterns,
  createMentionPatternCompiler,
  gateMention,
  resolveMentionPatterns,
} from "./mention-gate.js";

const msg = (text: string, extra: Partial<ChannelInbound> = {}): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId: "m",
  timestamp: 0,
  sender: { id: "1" },
  peer: { kind: "group", id: "g" },
  text,
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...extra,
});
const patterns = compileMentionPatterns(["@openclaw", "\\bclaw\\b"]).regexes;

describe("mention gating", () => {
  it("requires a mention in groups by default (native or pattern, case-insensitive)", () => {
    expect(gateMention({ message: msg("hello all"), config: {}, patterns })).toBe("context");
    expect(gateMention({ message: msg("hey @OpenClaw"), config: {}, patterns })).toBe("trigger");
    expect(gateMention({ message: msg("hi", { mentionedSelf: true }), config: {}, patterns })).toBe(
      "trigger",
    );
  });

  it("honours requireMention false (group over channel), DMs and broadcast gating off", () => {
    expect(gateMention({ message: msg("x"), config: { requireMention: false }, patterns })).toBe(
      "trigger",
    );
    expect(
      gateMention({
        message: msg("x"),
        config: { requireMention: false },
        group: { requireMention: true },
        patterns,
      }),
    ).toBe("context");
    expect(
      gateMention({
        message: msg("x", { peer: { kind: "direct", id: "1" } }),
        config: {},
        patterns,
      }),
    ).toBe("trigger");
    expect(gateMention({ message: msg("x"), config: {}, patterns, gating: false })).toBe("trigger");
  });

  it("self-chat triggers only on mention patterns, even in a DM", () => {
    const self = { fromSelf: true, peer: { kind: "direct" as const, id: "me" } };
    expect(gateMention({ message: msg("note to self", self), config: {}, patterns })).toBe(
      "context",
    );
    expect(gateMention({ message: msg("claw, remind me", self), config: {}, patterns })).toBe(
      "trigger",
    );
    expect(
      gateMention({ message: msg("x", { ...self, mentionedSelf: true }), config: {}, patterns }),
    ).toBe("context");
  });

  it("takes the routed agent's patterns, else messages.groupChat, plus channel and group ones", () => {
    const cfg = {
      agents: { list: [{ id: "main", groupChat: { mentionPatterns: ["@main"] } }, { id: "ops" }] },
      messages: { groupChat: { mentionPatterns: ["@all"] } },
    };
    expect(
      resolveMentionPatterns({ cfg, agentId: "main", config: { mentionPatterns: ["@chan"] } }),
    ).toEqual(["@main", "@chan"]);
    expect(
      resolveMentionPatterns({
        cfg,
        agentId: "ops",
        config: {},
        group: { mentionPatterns: ["@g"] },
      }),
    ).toEqual(["@all", "@g"]);
  });

  it("skips invalid patterns instead of throwing", () => {
    expect(compileMentionPatterns(["(", "ok"])).toMatchObject({ invalid: ["("] });
  });

  it("compiles each pattern once per host and reports an invalid one once", () => {
    const compile = createMentionPatternCompiler();
    const first = compile(["@bot", "("]);
    expect(first.invalid).toEqual(["("]);
    expect(first.regexes.map((regex) => regex.source)).toEqual(["@bot"]);
    const second = compile(["(", "@bot"]);
    expect(second.invalid).toEqual([]);
    expect(second.regexes[0]).toBe(first.regexes[0]);
  });
});
