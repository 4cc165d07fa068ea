// The adapter API is one import: an adapter written against `./index.js` alone registers and loads,
// and the built-in Telegram adapter reaches the channel area only through it.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type ChannelAdapter,
  createChannelRegistry,
  createUpdateGuard,
  DEFAULT_ACCOUNT_ID,
  defaultAccountIds,
} from "./index.js";

const echoAdapter: ChannelAdapter = {
  id: "echo",
  label: "Echo",
  capabilities: {
    maxTextLength: 100,
    markdown: "plain",
    typing: false,
    threads: false,
    media: false,
    nativeMentions: false,
  },
  listAccounts: defaultAccountIds,
  validateAccount: () => undefined,
  start: async () => ({
    send: async () => ({ ok: true, receipt: { messageId: "1" } }),
    probe: async () => ({ ok: false, error: "offline" }),
    stop: async () => {},
  }),
};

describe("channels/index.ts: the adapter API", () => {
  it("lets an adapter built from it alone register, load and list its accounts", async () => {
    const registry = createChannelRegistry();
    registry.registerLoader("echo", async () => echoAdapter);
    expect(registry.has("echo")).toBe(true);
    expect((await registry.load("echo"))?.listAccounts({})).toEqual([DEFAULT_ACCOUNT_ID]);
    expect(typeof createUpdateGuard).toBe("function");
  });

  it("is the only way the telegram adapter reaches the channel area", () => {
    const dir = new URL("./telegram/", import.meta.url);
    const offenders: string[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
      const text = readFileSync(new URL(name, dir), "utf8");
      for (const [, spec] of text.matchAll(/from "(\.\.\/[^"]+)"/g)) {
        if (spec !== "../index.js" && !spec.startsWith("../../"))
          offenders.push(`${name}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
