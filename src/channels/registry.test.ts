import { describe, expect, it } from "vitest";
import {
  accountFingerprint,
  configuredChannelIds,
  defaultAccountIds,
  isAccountEnabled,
  resolveAccountConfig,
} from "./account-config.js";
import { createChannelRegistry } from "./registry.js";
import type { ChannelAdapter } from "./types.js";

const adapter = (id: string): ChannelAdapter => ({
  id,
  label: id,
  capabilities: {
    maxTextLength: 10,
    markdown: "plain",
    typing: false,
    threads: false,
    media: false,
    nativeMentions: false,
  },
  listAccounts: () => ["default"],
  validateAccount: () => undefined,
  start: () => Promise.reject(new Error("not started in this test")),
});

describe("channel registry", () => {
  it("registers adapters and lazy loaders through one API; a loader runs once", async () => {
    let loads = 0;
    const registry = createChannelRegistry({ adapters: [adapter("a")] });
    registry.registerLoader("b", async () => {
      loads++;
      return adapter("b");
    });
    expect(registry.ids()).toEqual(["a", "b"]);
    expect(registry.get("b")).toBeUndefined();
    expect(registry.list().map((x) => x.id)).toEqual(["a"]);
    const [one, two] = await Promise.all([registry.load("b"), registry.load("b")]);
    expect(one).toBe(two);
    expect(loads).toBe(1);
    expect(await registry.load("zzz")).toBeUndefined();
    expect(registry.has("b") && !registry.has("c")).toBe(true);
  });

  it("rejects a loader that returns another channel's adapter", async () => {
    const registry = createChannelRegistry({ loaders: { x: async () => adapter("y") } });
    await expect(registry.load("x")).rejects.toThrow(/returned adapter "y"/);
  });
});

describe("account config", () => {
  const section = {
    botToken: "top",
    dmPolicy: "open",
    accounts: { work: { botToken: "w", enabled: false }, home: {} },
  };

  it("overlays account keys on channel keys and lists accounts", () => {
    expect(resolveAccountConfig(section, "home")).toEqual({ botToken: "top", dmPolicy: "open" });
    expect(resolveAccountConfig(section, "work")).toMatchObject({
      botToken: "w",
      dmPolicy: "open",
    });
    expect(defaultAccountIds(section)).toEqual(["work", "home"]);
    expect(defaultAccountIds({ botToken: "x" })).toEqual(["default"]);
    expect(isAccountEnabled(section, "work")).toBe(false);
    expect(isAccountEnabled({ ...section, enabled: false }, "home")).toBe(false);
  });

  it("lists enabled channels only and fingerprints settings key-order-free", () => {
    const cfg = { channels: { defaults: {}, telegram: {}, slack: { enabled: false } } };
    expect(configuredChannelIds(cfg)).toEqual(["telegram"]);
    expect(accountFingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(
      accountFingerprint({ b: { d: 3, c: 2 }, a: 1 }),
    );
  });
});
