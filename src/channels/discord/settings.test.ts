import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listDiscordAccounts, resolveDiscordSettings } from "./settings.js";

describe("Discord account settings", () => {
  it("reads an inline token (a `Bot ` prefix dropped) with the public REST base by default", () => {
    const result = resolveDiscordSettings({ config: { token: "Bot abc" }, env: {} });
    expect(result).toMatchObject({
      ok: true,
      settings: {
        token: "abc",
        tokenSource: "config",
        apiRoot: "https://discord.com/api",
        timeoutMs: 15_000,
        allowBots: false,
        groupDmEnabled: false,
      },
    });
  });

  it("substitutes env references and resolves env SecretRefs, naming what is missing", () => {
    const env = { MY_TOKEN: "from-env" };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an env reference in config, not a template.
    expect(resolveDiscordSettings({ config: { token: "${MY_TOKEN}" }, env })).toMatchObject({
      ok: true,
      settings: { token: "from-env" },
    });
    const ref = { token: { source: "env", provider: "default", id: "NOPE" } };
    expect(resolveDiscordSettings({ config: ref, env, accountId: "work" })).toEqual({
      ok: false,
      error: "channels.discord.accounts.work.token: environment variable NOPE is not set",
    });
  });

  it("reads tokenFile, and DISCORD_BOT_TOKEN for the default account only", () => {
    const dir = mkdtempSync(join(tmpdir(), "pincer-dc-settings-"));
    try {
      const file = join(dir, "token");
      writeFileSync(file, "file-token\n");
      expect(resolveDiscordSettings({ config: { tokenFile: file }, env: {} })).toMatchObject({
        ok: true,
        settings: { token: "file-token", tokenSource: "tokenFile" },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const env = { DISCORD_BOT_TOKEN: "env-token" };
    expect(resolveDiscordSettings({ config: {}, env, accountId: "default" })).toMatchObject({
      ok: true,
      settings: { token: "env-token", tokenSource: "env" },
    });
    expect(resolveDiscordSettings({ config: {}, env, accountId: "work" })).toEqual({
      ok: false,
      error: "discord: no bot token; set channels.discord.accounts.work.token or tokenFile",
    });
  });

  it("reads apiRoot, allowBots, timeoutSeconds and the dm block's group-DM keys; refuses a bad apiRoot", () => {
    const config = {
      token: "t",
      apiRoot: "http://127.0.0.1:9/api/",
      allowBots: true,
      timeoutSeconds: 2,
      dm: { groupEnabled: true, groupChannels: ["123", "Friends"] },
    };
    expect(resolveDiscordSettings({ config, env: {} })).toMatchObject({
      ok: true,
      settings: {
        apiRoot: "http://127.0.0.1:9/api",
        allowBots: true,
        timeoutMs: 2000,
        groupDmEnabled: true,
        groupDmChannels: ["123", "Friends"],
      },
    });
    const bad = resolveDiscordSettings({ config: { token: "t", apiRoot: "not a url" }, env: {} });
    expect(bad).toEqual({ ok: false, error: 'discord: apiRoot "not a url" is not a URL' });
  });

  it("lists the accounts map, plus default when the token sits at the channel level", () => {
    expect(listDiscordAccounts({})).toEqual(["default"]);
    expect(listDiscordAccounts({ accounts: { a: {}, b: {} } })).toEqual(["a", "b"]);
    expect(listDiscordAccounts({ token: "t", accounts: { a: {} } })).toEqual(["default", "a"]);
  });
});
