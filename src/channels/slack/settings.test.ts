import { describe, expect, it } from "vitest";
import { resolveSlackSettings } from "./settings.js";

describe("resolveSlackSettings", () => {
  it("socket mode (the default) needs an xoxb- bot token and an xapp- app token", () => {
    const ok = resolveSlackSettings({
      config: { botToken: "xoxb-1", appToken: "xapp-1" },
      env: {},
    });
    expect(ok).toMatchObject({
      ok: true,
      settings: {
        mode: "socket",
        botToken: "xoxb-1",
        appToken: "xapp-1",
        apiUrl: "https://slack.com/api/",
        replyToMode: "off",
        allowBots: false,
      },
    });
    const missing = resolveSlackSettings({ config: {}, env: {}, accountId: "default" });
    expect(missing).toEqual({
      ok: false,
      error:
        "slack (socket mode): no botToken; set channels.slack.botToken or SLACK_BOT_TOKEN; no appToken; set channels.slack.appToken or SLACK_APP_TOKEN",
    });
    const swapped = resolveSlackSettings({
      config: { botToken: "xapp-1", appToken: "xoxb-1" },
      env: {},
    });
    expect(swapped.ok ? "" : swapped.error).toContain("botToken must start with xoxb-");
  });

  it("env tokens serve the default account only; VAR references and env SecretRefs resolve", () => {
    const env = { SLACK_BOT_TOKEN: "xoxb-env", SLACK_APP_TOKEN: "xapp-env", MY: "xoxb-mine" };
    expect(resolveSlackSettings({ config: {}, env, accountId: "default" })).toMatchObject({
      ok: true,
      settings: { botToken: "xoxb-env", appToken: "xapp-env" },
    });
    const other = resolveSlackSettings({ config: {}, env, accountId: "work" });
    expect(other.ok ? "" : other.error).toContain("channels.slack.accounts.work.botToken");
    expect(
      resolveSlackSettings({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a config ${VAR} reference.
        config: { botToken: "${MY}", appToken: { source: "env", id: "SLACK_APP_TOKEN" } },
        env,
        accountId: "work",
      }),
    ).toMatchObject({ ok: true, settings: { botToken: "xoxb-mine", appToken: "xapp-env" } });
    const unset = resolveSlackSettings({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a config ${VAR} reference.
      config: { botToken: "${NOPE}", appToken: "xapp-1" },
      env: {},
    });
    expect(unset.ok ? "" : unset.error).toContain("botToken: NOPE is not set");
  });

  it("http mode needs a signing secret; webhookPath and apiUrl are checked", () => {
    const ok = resolveSlackSettings({
      config: {
        mode: "http",
        botToken: "xoxb-1",
        signingSecret: "s",
        apiUrl: "http://127.0.0.1:9/api",
      },
      env: {},
    });
    expect(ok).toMatchObject({
      ok: true,
      settings: {
        mode: "http",
        signingSecret: "s",
        webhookPath: "/slack/events",
        apiUrl: "http://127.0.0.1:9/api/",
      },
    });
    const bad = resolveSlackSettings({
      config: { mode: "http", botToken: "xoxb-1", webhookPath: "slack", apiUrl: "ftp://x" },
      env: {},
    });
    expect(bad.ok ? "" : bad.error).toBe(
      'slack (http mode): no signingSecret; set channels.slack.signingSecret; webhookPath "slack" must start with /; apiUrl "ftp://x" is not an http(s) URL',
    );
    const mode = resolveSlackSettings({ config: { mode: "rtm", botToken: "xoxb-1" }, env: {} });
    expect(mode.ok ? "" : mode.error).toContain('mode "rtm" is not socket or http');
  });

  it("reads replyToMode, allowBots and the dm block's group-DM keys", () => {
    const result = resolveSlackSettings({
      config: {
        botToken: "xoxb-1",
        appToken: "xapp-1",
        replyToMode: "first",
        allowBots: true,
        dm: { groupEnabled: true, groupChannels: ["G1", "team-chat"] },
      },
      env: {},
    });
    expect(result).toMatchObject({
      ok: true,
      settings: {
        replyToMode: "first",
        allowBots: true,
        groupDmEnabled: true,
        groupDmChannels: ["G1", "team-chat"],
      },
    });
  });

  it("reads the thread block (OpenClaw's defaults: thread / 20 / false) and names a bad value", () => {
    const tokens = { botToken: "xoxb-1", appToken: "xapp-1" };
    expect(resolveSlackSettings({ config: tokens, env: {} })).toMatchObject({
      ok: true,
      settings: {
        thread: { historyScope: "thread", initialHistoryLimit: 20, inheritParent: false },
      },
    });
    const set = resolveSlackSettings({
      config: {
        ...tokens,
        thread: { historyScope: "channel", initialHistoryLimit: 0, inheritParent: true },
      },
      env: {},
    });
    expect(set).toMatchObject({
      ok: true,
      settings: {
        thread: { historyScope: "channel", initialHistoryLimit: 0, inheritParent: true },
      },
    });
    const bad = resolveSlackSettings({
      config: {
        ...tokens,
        thread: { historyScope: "everything", initialHistoryLimit: -1, inheritParent: "yes" },
      },
      env: {},
      accountId: "work",
    });
    expect(bad.ok ? "" : bad.error).toBe(
      "slack (socket mode): " +
        'channels.slack.accounts.work.thread.historyScope "everything" is not thread or channel; ' +
        "channels.slack.accounts.work.thread.initialHistoryLimit must be a whole number >= 0 (0: none); " +
        "channels.slack.accounts.work.thread.inheritParent must be true or false",
    );
  });
});
