import { describe, expect, it } from "vitest";
import { listSignalAccounts, resolveSignalSettings } from "./settings.js";

describe("resolveSignalSettings", () => {
  it("autoStart by default: the daemon on 127.0.0.1:8080, the number normalized", () => {
    const result = resolveSignalSettings({ config: { account: "+1 (555) 123-4567" } });
    expect(result).toMatchObject({
      ok: true,
      settings: {
        account: "+15551234567",
        baseUrl: "http://127.0.0.1:8080",
        daemon: { cliPath: "signal-cli", host: "127.0.0.1", port: 8080, startupTimeoutMs: 30_000 },
        ignoreStories: true,
        sendReadReceipts: false,
      },
    });
  });

  it("httpUrl alone means an external daemon; startupTimeoutMs is capped", () => {
    const external = resolveSignalSettings({ config: { httpUrl: "http://10.0.0.2:9000/" } });
    expect(external.ok && external.settings.daemon).toBeUndefined();
    expect(external.ok && external.settings.baseUrl).toBe("http://10.0.0.2:9000");
    const capped = resolveSignalSettings({
      config: { account: "+15551234567", startupTimeoutMs: 999_999 },
    });
    expect(capped.ok && capped.settings.daemon?.startupTimeoutMs).toBe(120_000);
  });

  it("names what is wrong, and where", () => {
    expect(resolveSignalSettings({ config: {}, accountId: "work" })).toEqual({
      ok: false,
      error: expect.stringContaining("channels.signal.accounts.work.account"),
    });
    expect(resolveSignalSettings({ config: { account: "hello" } })).toEqual({
      ok: false,
      error: expect.stringContaining('channels.signal.account "hello" is not a phone number'),
    });
    expect(resolveSignalSettings({ config: { httpUrl: "localhost:8080" } })).toEqual({
      ok: false,
      error: expect.stringContaining("is not an http(s) URL"),
    });
  });
});

describe("listSignalAccounts", () => {
  it("the accounts map, plus default for a channel-level number", () => {
    expect(listSignalAccounts({})).toEqual(["default"]);
    expect(listSignalAccounts({ accounts: { a: {}, b: {} } })).toEqual(["a", "b"]);
    expect(listSignalAccounts({ account: "+1555", accounts: { a: {} } })).toEqual(["default", "a"]);
  });
});
