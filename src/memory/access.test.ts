import { describe, expect, it } from "vitest";
import { memoryAccessFor, memoryRefusal } from "./access.js";

describe("memoryAccessFor", () => {
  it.each([
    ["agent:main:main", "private"],
    ["main", "private"],
    ["agent:main:direct:+15550001", "private"],
    ["agent:main:telegram:direct:42", "private"],
    ["agent:main:slack:work:direct:u1", "private"],
    ["agent:main:telegram:group:-100", "shared"],
    ["agent:main:discord:channel:9", "shared"],
    ["agent:main:slack:channel:c1:thread:1.2", "shared"],
    ["agent:main:cron:job-1", "shared"],
    ["agent:main:subagent:abc", "subagent"],
    ["agent:other:main", "shared"],
    [undefined, "shared"],
    ["", "shared"],
  ] as const)("%s → %s", (sessionKey, access) => {
    expect(memoryAccessFor({ agentId: "main", sessionKey })).toBe(access);
  });

  it("honours session.mainKey and the global scope", () => {
    expect(
      memoryAccessFor({ agentId: "main", sessionKey: "agent:main:home", mainKey: "home" }),
    ).toBe("private");
    expect(
      memoryAccessFor({ agentId: "main", sessionKey: "agent:main:main", mainKey: "home" }),
    ).toBe("shared");
    expect(memoryAccessFor({ agentId: "main", sessionKey: "global", scope: "global" })).toBe(
      "private",
    );
  });

  it("names the session in the refusal", () => {
    expect(memoryRefusal("agent:main:telegram:group:-100")).toBe(
      "memory is private: the memory tools work in the agent's main session and direct chats only, not in session agent:main:telegram:group:-100",
    );
  });
});
