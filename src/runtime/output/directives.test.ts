import { describe, expect, it } from "vitest";
import { isSilentReply, isSilentReplyPrefix, parseReplyDirectives } from "./directives.js";
import { processReply } from "./reply.js";

describe("parseReplyDirectives", () => {
  it("takes media, voice and reply directives out of the text", () => {
    expect(
      parseReplyDirectives(
        "[[reply:msg-42]] Here is the chart [[media:https://x.test/a.png]]\n[[voice]]",
      ),
    ).toEqual({
      text: "Here is the chart",
      media: ["https://x.test/a.png"],
      voice: true,
      replyTo: "msg-42",
    });
  });

  it("collects several media, keeps the first reply id, accepts aliases and spacing", () => {
    const parsed = parseReplyDirectives(
      "[[ media : /tmp/a.jpg ]]\n[[MEDIA:/tmp/b.jpg]]\n[[reply_to: 7]] [[reply:8]] [[audio_as_voice]]\nHi",
    );
    expect(parsed).toEqual({
      text: "Hi",
      media: ["/tmp/a.jpg", "/tmp/b.jpg"],
      voice: true,
      replyTo: "7",
    });
  });

  it("takes OpenClaw's MEDIA: lines out too, in order, outside code only", () => {
    const parsed = parseReplyDirectives(
      'Chart:\nMEDIA:/ws/chart.png\n  MEDIA: `~/b.png`\n[[media:https://x.test/c.png]]\nMEDIA: "file:///ws/d.pdf"\nend',
    );
    expect(parsed).toEqual({
      text: "Chart:\n\nend",
      media: ["/ws/chart.png", "~/b.png", "https://x.test/c.png", "file:///ws/d.pdf"],
      voice: false,
    });
    const kept = "MEDIA: is how you attach\n```\nMEDIA:/etc/passwd\n```\nsee MEDIA:/x inline";
    expect(parseReplyDirectives(kept)).toEqual({ text: kept, media: [], voice: false });
  });

  it("joins the words around a directive with one space", () => {
    expect(parseReplyDirectives("see [[media:u]] this").text).toBe("see this");
  });

  it("leaves directives inside fenced code and unknown or empty ones alone", () => {
    const text = "Syntax:\n```\n[[media:url]]\n```\n[[unknown:x]] [[media:]]";
    expect(parseReplyDirectives(text)).toEqual({ text, media: [], voice: false });
  });

  it("collapses the blank lines a removed directive leaves", () => {
    expect(parseReplyDirectives("One\n\n[[voice]]\n\n\nTwo").text).toBe("One\n\nTwo");
  });
});

describe("isSilentReply", () => {
  it("accepts the bare token, trimmed, with punctuation or markdown around it", () => {
    for (const text of [
      "NO_REPLY",
      "  NO_REPLY\n",
      "NO_REPLY.",
      "**NO_REPLY**",
      "`NO_REPLY`",
      '"no_reply"',
    ]) {
      expect(isSilentReply(text), text).toBe(true);
    }
  });

  it("rejects replies that contain anything else", () => {
    for (const text of ["", "NO_REPLY but here is more", "I will NO_REPLY", "NO_REPLYING", "NO"]) {
      expect(isSilentReply(text), text).toBe(false);
    }
    expect(isSilentReply("HEARTBEAT_OK", "HEARTBEAT_OK")).toBe(true);
  });

  it("tells a streaming channel to hold text that may still become the token", () => {
    expect(isSilentReplyPrefix("NO_")).toBe(true);
    expect(isSilentReplyPrefix("  ")).toBe(true);
    expect(isSilentReplyPrefix("NO_REPLY.")).toBe(true);
    expect(isSilentReplyPrefix("Not")).toBe(false);
    expect(isSilentReplyPrefix("Hello")).toBe(false);
  });
});

describe("processReply", () => {
  it("strips reasoning, honours <final>, parses directives and flags silence", () => {
    expect(
      processReply("<think>user wants a pic</think><final>Here [[media:https://x/p.png]]</final>"),
    ).toEqual({ text: "Here", media: ["https://x/p.png"], voice: false, silent: false });
    expect(processReply("<think>not for me</think>NO_REPLY")).toMatchObject({
      silent: true,
      text: "",
    });
    expect(processReply("<think>only thoughts")).toMatchObject({ silent: true });
    expect(processReply("NO_REPLY", { silentToken: "" })).toMatchObject({ silent: false });
  });
});
