import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import { effectiveElevatedLevel, elevatedAvailability } from "../../runtime/approvals/index.js";
import { elevatedSenderRefusal } from "./elevated-command.js";
import type { CommandRequest } from "./types.js";

const cfg = resolveRoster({
  tools: { elevated: { enabled: true, allowFrom: { telegram: ["42", "@ana"], "*": ["7"] } } },
  agents: {
    defaults: { elevatedDefault: "ask" },
    list: [
      { id: "main" },
      { id: "kids", tools: { elevated: { enabled: false } } },
      { id: "work", tools: { elevated: { allowFrom: { telegram: ["42"] } } } },
    ],
  },
  channels: { discord: { dm: { allowFrom: ["99"] } } },
});

function request(fields: Partial<CommandRequest>): CommandRequest {
  return {
    name: "elevated",
    typed: "elevated",
    args: "on",
    agentId: "main",
    sessionKey: "agent:main:main",
    channel: "telegram",
    chatType: "direct",
    senderId: "1",
    ...fields,
  };
}

describe("elevated gates", () => {
  it("names the sender by id or username on the channel's list, '*' for other channels", () => {
    expect(elevatedSenderRefusal(cfg, request({ senderId: "42" }))).toBeUndefined();
    expect(elevatedSenderRefusal(cfg, request({ senderUsername: "ana" }))).toBeUndefined();
    expect(elevatedSenderRefusal(cfg, request({ senderId: "7" }))).toContain(
      "tools.elevated.allowFrom.telegram does not name you (sender 7)",
    );
    expect(
      elevatedSenderRefusal(cfg, request({ channel: "slack", senderId: "7" })),
    ).toBeUndefined();
    expect(elevatedSenderRefusal(cfg, request({ chatType: "operator" }))).toBeUndefined();
  });

  it("falls back to Discord's DM allowlist; an agent's own allowFrom must name the sender too", () => {
    const noDiscordKey = resolveRoster({
      tools: { elevated: { enabled: true, allowFrom: { telegram: ["42"] } } },
      channels: { discord: { dm: { allowFrom: ["99"] } } },
    });
    expect(
      elevatedSenderRefusal(noDiscordKey, request({ channel: "discord", senderId: "99" })),
    ).toBeUndefined();
    expect(
      elevatedSenderRefusal(noDiscordKey, request({ channel: "discord", senderId: "98" })),
    ).toBeDefined();
    expect(
      elevatedSenderRefusal(cfg, request({ agentId: "work", senderId: "42" })),
    ).toBeUndefined();
    expect(
      elevatedSenderRefusal(cfg, request({ agentId: "work", senderUsername: "ana" })),
    ).toContain("agent work");
  });

  it("is off unless enabled, per agent too; a session without a level uses elevatedDefault", () => {
    expect(elevatedAvailability(cfg, "main")).toEqual({ ok: true });
    expect(elevatedAvailability(cfg, "kids")).toMatchObject({ ok: false });
    expect(elevatedAvailability(resolveRoster({}), "main")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("tools.elevated.enabled"),
    });
    expect(effectiveElevatedLevel({ cfg, agentId: "main", sessionLevel: undefined })).toBe("ask");
    expect(effectiveElevatedLevel({ cfg, agentId: "main", sessionLevel: "full" })).toBe("full");
    expect(effectiveElevatedLevel({ cfg, agentId: "kids", sessionLevel: "full" })).toBe("off");
  });
});
