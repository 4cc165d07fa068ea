// Token sources, their precedence and error messages; apiRoot, media cap; account listing.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { listTelegramAccounts, resolveTelegramSettings } from "./account-settings.js";
import { createTelegramAdapter } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = makeTempDir("pincer-tg-settings-");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// `${TG}` written so the linter does not take it for a template literal.
const TG_REF = "$" + "{TG}";

const token = (
  config: Record<string, unknown>,
  env: Record<string, string> = {},
  accountId?: string,
) => {
  const result = resolveTelegramSettings({ config, env, accountId });
  return result.ok
    ? `${result.settings.tokenSource}:${result.settings.token}`
    : `error:${result.error}`;
};

describe("resolveTelegramSettings", () => {
  it("reads the inline token, resolving env references", () => {
    expect(token({ botToken: " 1:abc " })).toBe("config:1:abc");
    expect(token({ botToken: TG_REF }, { TG: "2:xyz" })).toBe("config:2:xyz");
    expect(token({ botToken: TG_REF })).toBe("error:botToken: TG is not set");
  });

  it("reads an env SecretRef and refuses other sources", () => {
    expect(token({ botToken: { source: "env", id: "TG" } }, { TG: "3:env" })).toBe("env:3:env");
    expect(token({ botToken: { source: "file", id: "/x" } })).toMatch(/not supported/);
  });

  it("reads tokenFile (trimmed) and names an unreadable one", () => {
    const path = join(dir, "token");
    writeFileSync(path, "4:file\n");
    expect(token({ tokenFile: path })).toBe("tokenFile:4:file");
    expect(token({ tokenFile: join(dir, "missing") })).toMatch(
      /^error:tokenFile .* cannot be read/,
    );
    expect(token({ botToken: "5:inline", tokenFile: path })).toBe("config:5:inline");
  });

  it("uses TELEGRAM_BOT_TOKEN for the default account only", () => {
    const env = { TELEGRAM_BOT_TOKEN: "6:envtoken" };
    expect(token({}, env, "default")).toBe("env:6:envtoken");
    expect(token({}, env)).toBe("env:6:envtoken");
    expect(token({}, env, "alerts")).toBe(
      "error:telegram: no bot token; set channels.telegram.accounts.alerts.botToken or tokenFile",
    );
    expect(token({ botToken: "7:cfg" }, env, "default")).toBe("config:7:cfg");
  });

  it("defaults apiRoot to api.telegram.org, trims a trailing slash, reads mediaMaxMb", () => {
    const base = resolveTelegramSettings({ config: { botToken: "1:a" }, env: {} });
    expect(base.ok && base.settings.apiRoot).toBe("https://api.telegram.org");
    expect(base.ok && base.settings.mediaMaxBytes).toBe(5 * 1024 * 1024);
    const custom = resolveTelegramSettings({
      config: { botToken: "1:a", apiRoot: "http://127.0.0.1:8081/", mediaMaxMb: 20 },
      env: {},
    });
    expect(custom.ok && custom.settings.apiRoot).toBe("http://127.0.0.1:8081");
    expect(custom.ok && custom.settings.mediaMaxBytes).toBe(20 * 1024 * 1024);
  });

  it("validateAccount names what is missing", () => {
    const adapter = createTelegramAdapter();
    expect(adapter.validateAccount({ botToken: "1:a" }, {})).toBeUndefined();
    expect(adapter.validateAccount({}, {})).toBe(
      "telegram: no bot token; set channels.telegram.botToken, tokenFile or TELEGRAM_BOT_TOKEN",
    );
  });
});

describe("listTelegramAccounts", () => {
  it("lists the accounts map, default for channel-level credentials, default when nothing else", () => {
    expect(listTelegramAccounts({})).toEqual(["default"]);
    expect(listTelegramAccounts({ botToken: "1:a" })).toEqual(["default"]);
    expect(listTelegramAccounts({ accounts: { default: {}, alerts: {} } })).toEqual([
      "default",
      "alerts",
    ]);
    expect(listTelegramAccounts({ botToken: "1:a", accounts: { alerts: {} } })).toEqual([
      "default",
      "alerts",
    ]);
    expect(listTelegramAccounts({ accounts: { alerts: {} } })).toEqual(["alerts"]);
  });
});
