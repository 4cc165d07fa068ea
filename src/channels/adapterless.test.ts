import { describe, expect, it } from "vitest";
import { adapterlessChannels, withAdapterlessChannels } from "./adapterless.js";
import type { ChannelsStatus } from "./host-status.js";

const cfg = {
  channels: {
    telegram: { botToken: "t" },
    whatsapp: { accounts: { personal: {}, work: { enabled: false } } },
    discord: { token: "d" },
    slack: { enabled: false, botToken: "s" },
    defaults: { groupPolicy: "open" as const },
  },
};
const hasAdapter = (id: string) => id === "telegram";

describe("adapterless channels", () => {
  it("lists enabled channels without an adapter with their account ids (default for a single one)", () => {
    expect(adapterlessChannels(cfg, hasAdapter)).toEqual([
      {
        channel: "whatsapp",
        accounts: [
          { accountId: "personal", enabled: true },
          { accountId: "work", enabled: false },
        ],
      },
      { channel: "discord", accounts: [{ accountId: "default", enabled: true }] },
    ]);
  });

  it("adds them to a running host's status, keeping the host's channels as they are", () => {
    const running: ChannelsStatus = {
      ts: 1,
      channelOrder: ["telegram"],
      channelLabels: { telegram: "Telegram" },
      channels: { telegram: { configured: true, running: true, accounts: 1 } },
      channelAccounts: { telegram: [] },
      deliveries: { queued: 0, failed: 0, uncertain: 0 },
    };
    const out = withAdapterlessChannels(running, { cfg, hasAdapter });
    expect(out.channelOrder).toEqual(["telegram", "whatsapp", "discord"]);
    expect(out.channels.telegram).toEqual(running.channels.telegram);
    expect(out.channels.whatsapp).toEqual({
      configured: false,
      running: false,
      accounts: 2,
      adapter: false,
    });
    expect(out.channelAccounts.whatsapp?.map((a) => [a.accountId, a.adapter, a.running])).toEqual([
      ["personal", false, false],
      ["work", false, false],
    ]);
    expect(out.channelAccounts.discord?.[0]?.lastError).toContain("not supported by Pincer yet");
    expect(running.channelOrder).toEqual(["telegram"]);
  });
});
