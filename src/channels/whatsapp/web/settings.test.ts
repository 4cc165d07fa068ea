import { describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../index.js";
import { resolveWebSettings, selfChatEnabled } from "./settings.js";

const base = { stateDir: "/state", accountId: "biz", env: { HOME: "/home/u" } };

describe("WhatsApp Web settings", () => {
  it("defaults: auth dir under the state dir, read receipts on, no ack reaction", () => {
    const result = resolveWebSettings({ ...base, config: {} });
    expect(result).toMatchObject({
      ok: true,
      settings: {
        authDir: "/state/credentials/whatsapp/biz",
        sendReadReceipts: true,
        ackReaction: undefined,
        selfChatMode: undefined,
        textChunkLimit: undefined,
      },
    });
  });

  it("reads ackReaction, sendReadReceipts, textChunkLimit and the self-chat default from allowFrom", () => {
    const result = resolveWebSettings({
      ...base,
      config: {
        ackReaction: { emoji: "✅" },
        sendReadReceipts: false,
        textChunkLimit: 1000,
        allowFrom: ["+1 555 000 1111", "*"],
      },
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.settings).toMatchObject({
      ackReaction: { emoji: "✅", direct: true, group: "mentions" },
      sendReadReceipts: false,
      textChunkLimit: 1000,
    });
    expect(selfChatEnabled(result.settings, "+15550001111")).toBe(true);
    expect(selfChatEnabled(result.settings, "+15550002222")).toBe(false);
    const off = resolveWebSettings({
      ...base,
      config: { selfChatMode: false, allowFrom: ["+15550001111"] },
    });
    expect(off.ok && selfChatEnabled(off.settings, "+15550001111")).toBe(false);
  });

  it("the adapter refuses a bad ackReaction or authDir, and a bad transport, naming the key", () => {
    const adapter = createWhatsAppAdapter();
    expect(adapter.validateAccount({}, {})).toBeUndefined();
    expect(adapter.validateAccount({ ackReaction: { emoji: "👀", group: "sometimes" } }, {})).toBe(
      'whatsapp: ackReaction.group "sometimes" is not one of always, mentions, never',
    );
    expect(adapter.validateAccount({ authDir: 42 }, {})).toBe(
      "whatsapp: authDir must be a path string",
    );
    expect(adapter.validateAccount({ transport: "webb" }, {})).toMatch(
      /transport "webb" is not one of web, cloud/,
    );
  });
});
