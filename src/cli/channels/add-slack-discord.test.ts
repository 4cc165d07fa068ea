import { readFileSync } from "node:fs";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

function slackAccount(path: string, id: string): Record<string, unknown> | undefined {
  const config = JSON5.parse(readFileSync(path, "utf8")) as {
    channels?: { slack?: { accounts?: Record<string, Record<string, unknown>> } };
  };
  return config.channels?.slack?.accounts?.[id];
}

describe("pincer channels add (Slack, Discord)", () => {
  it("Slack socket mode: tokens recognised by prefix, one per line; list shows them (no secret)", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{\n  // mine\n}\n");
    const added = await sb.run(
      ["channels", "add", "--channel", "slack", "--account", "work", "--token-stdin"],
      "xapp-1-A\n\nxoxb-2-B\nxoxp-3-C\n",
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(slackAccount(sb.configPath, "work")).toEqual({
      mode: "socket",
      botToken: "xoxb-2-B",
      appToken: "xapp-1-A",
      userToken: "xoxp-3-C",
    });
    expect(readFileSync(sb.configPath, "utf8")).toContain("// mine");
    const listed = await sb.run(["channels", "list", "--json"]);
    const row = JSON.parse(listed.stdout).channels[0];
    expect(row).toMatchObject({ channel: "slack", accountId: "work", adapter: true });
    expect(row.auth.map((a: { key: string }) => a.key)).toEqual([
      "botToken",
      "appToken",
      "userToken",
    ]);
    expect(listed.stdout).not.toContain("xoxb-2-B");
  });

  it("Slack http mode: a bot token and the signing secret (the unprefixed line)", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const added = await sb.run(
      ["channels", "add", "--channel", "slack", "--mode", "http", "--token-stdin"],
      "xoxb-9\n8f742231b10e8888abcd99yyyzzz85a5\n",
    );
    expect(added.code).toBe(0);
    expect(slackAccount(sb.configPath, "default")).toEqual({
      mode: "http",
      botToken: "xoxb-9",
      signingSecret: "8f742231b10e8888abcd99yyyzzz85a5",
    });
  });

  it("Slack: a usage error names what is missing, and nothing is written", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const cases: Array<[string[], string, string]> = [
      [[], "xoxb-1\n", "missing: an app-level token (xapp-…)"],
      [[], "xapp-1\n", "missing: a bot token (xoxb-…)"],
      [["--mode", "http"], "xoxb-1\n", "missing: the signing secret"],
      [[], "xoxb-1\nsecret\n", "a signing secret needs --mode http"],
      [[], "xoxb-1\nxoxb-2\nxapp-1\n", "two botToken lines"],
      [["--mode", "rtm"], "xoxb-1\n", '--mode "rtm": expected socket or http'],
    ];
    for (const [flags, stdin, message] of cases) {
      const res = await sb.run(
        ["channels", "add", "--channel", "slack", ...flags, "--token-stdin"],
        stdin,
      );
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(message);
    }
    expect(readFileSync(sb.configPath, "utf8")).toBe("{}");
    const argv = await sb.run(["channels", "add", "--channel", "slack"]);
    expect(argv.code).toBe(2);
    expect(argv.stderr).toContain("--token-stdin is required");
    const mode = await sb.run(
      ["channels", "add", "--channel", "telegram", "--mode", "http", "--token-stdin"],
      "1:A\n",
    );
    expect(mode.code).toBe(2);
  });

  it("Discord: the one stdin line is the account's token", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const added = await sb.run(
      ["channels", "add", "--channel", "discord", "--account", "guild", "--token-stdin"],
      "MTIz.abc.def\n",
    );
    expect(added.code).toBe(0);
    const config = JSON5.parse(readFileSync(sb.configPath, "utf8"));
    expect(config.channels.discord.accounts.guild).toEqual({ token: "MTIz.abc.def" });
  });
});
