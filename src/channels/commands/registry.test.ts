import { describe, expect, it } from "vitest";
import { createCommandEvents } from "./events.js";
import { commandHelpLine, createCommandRegistry } from "./registry.js";
import { BUILTIN_COMMANDS } from "./service.js";

describe("command registry", () => {
  it("resolves names and aliases case-insensitively; unknown names are not commands", () => {
    const registry = createCommandRegistry(BUILTIN_COMMANDS);
    expect(registry.resolve("STATUS")?.name).toBe("status");
    expect(registry.resolve("id")?.name).toBe("whoami");
    expect(registry.resolve("foo")).toBeUndefined();
  });

  it("refuses a name registered twice and generates help lines from the definitions", () => {
    const [first] = BUILTIN_COMMANDS;
    expect(() => createCommandRegistry([first!, { ...first!, aliases: [first!.name] }])).toThrow(
      /registered twice/,
    );
    const compact = BUILTIN_COMMANDS.find((d) => d.name === "compact")!;
    expect(commandHelpLine(compact)).toMatch(/^\/compact \[instructions\] — /);
    const whoami = BUILTIN_COMMANDS.find((d) => d.name === "whoami")!;
    expect(commandHelpLine(whoami)).toContain("(also /id)");
  });
});

describe("command events", () => {
  it("delivers to subscribers until they unsubscribe; a throwing listener does not stop others", () => {
    const events = createCommandEvents();
    const seen: string[] = [];
    events.subscribe(() => {
      throw new Error("boom");
    });
    const stop = events.subscribe((event) => seen.push(event.action));
    const event = {
      type: "command" as const,
      action: "new",
      sessionKey: "agent:main:main",
      agentId: "main",
      channel: "telegram",
      senderId: "111",
      args: "",
      timestamp: 1,
    };
    events.emit(event);
    stop();
    events.emit({ ...event, action: "stop" });
    expect(seen).toEqual(["new"]);
  });
});
