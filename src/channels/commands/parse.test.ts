import { describe, expect, it } from "vitest";
import { otherBotAddressed, parseCommand } from "./parse.js";

describe("parseCommand", () => {
  it("reads the name (case-insensitive) and the arguments after it", () => {
    expect(parseCommand("/status")).toEqual({ name: "status", args: "" });
    expect(parseCommand("  /Compact keep the decisions  ")).toEqual({
      name: "compact",
      args: "keep the decisions",
    });
    expect(parseCommand("/think: high")).toEqual({ name: "think", args: "high" });
    expect(parseCommand("/help:")).toEqual({ name: "help", args: "" });
  });

  it("is not a command when the text does not start with /name", () => {
    expect(parseCommand("hey /status")).toBeUndefined();
    expect(parseCommand("/")).toBeUndefined();
    expect(parseCommand("/123")).toBeUndefined();
    expect(parseCommand("/status/x")).toBeUndefined();
    expect(parseCommand("path /etc/hosts")).toBeUndefined();
  });

  it("accepts this bot's @suffix and leading mention, refuses another bot's", () => {
    const self = { selfUsername: "Pincer_Bot" };
    expect(parseCommand("/status@pincer_bot", self)).toEqual({ name: "status", args: "" });
    expect(parseCommand("/new@PINCER_BOT opus", self)).toEqual({ name: "new", args: "opus" });
    expect(parseCommand("@pincer_bot /status", self)).toEqual({ name: "status", args: "" });
    expect(parseCommand("/status@other_bot", self)).toBeUndefined();
    // Without a known username, any @suffix names someone else.
    expect(parseCommand("/status@pincer_bot")).toBeUndefined();
  });

  it("names the other bot a /name@bot message addresses (any name, known or not)", () => {
    const self = { selfUsername: "Pincer_Bot" };
    expect(otherBotAddressed("/status@Other_Bot", self)).toBe("other_bot");
    expect(otherBotAddressed("/anything@other_bot some args", self)).toBe("other_bot");
    expect(otherBotAddressed("@pincer_bot /reset@other_bot", self)).toBe("other_bot");
    expect(otherBotAddressed("/status@pincer_bot", self)).toBeUndefined();
    expect(otherBotAddressed("/status", self)).toBeUndefined();
    expect(otherBotAddressed("mail me at a@b.c", self)).toBeUndefined();
    expect(otherBotAddressed("/status@someone")).toBe("someone");
  });
});
