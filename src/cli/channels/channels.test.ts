import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { createPairingStore } from "../../channels/pairing/pairing-store.js";

describe("pincer channels", () => {
  it("add writes the bot token from stdin, keeping the config's comments; list shows it (no secret)", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{\n  // my gateway\n  gateway: { port: 1 },\n}\n");
    const added = await sb.run(
      ["channels", "add", "--channel", "telegram", "--account", "work", "--token-stdin"],
      "123:ABC\n",
    );
    expect(added.code).toBe(0);
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// my gateway");
    expect(text).toContain("123:ABC");
    const listed = await sb.run(["channels", "list", "--json"]);
    expect(JSON.parse(listed.stdout).channels).toEqual([
      {
        channel: "telegram",
        accountId: "work",
        enabled: true,
        adapter: true,
        credentials: ["botToken"],
        auth: [{ key: "botToken", source: "config", present: true }],
        dmPolicy: "pairing",
        groupPolicy: "allowlist",
      },
    ]);
    expect(listed.stdout).not.toContain("123:ABC");
  });

  it("add refuses a token on argv and an empty stdin", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    expect((await sb.run(["channels", "add", "--channel", "telegram"])).code).toBe(2);
    expect(
      (await sb.run(["channels", "add", "--channel", "telegram", "--token-stdin"], " ")).code,
    ).toBe(2);
  });

  it("add for WhatsApp creates the account to link (kept as it is when it exists) and refuses a token", async () => {
    const sb = createCliSandbox();
    sb.writeConfig('{ channels: { whatsapp: { accounts: { biz: { transport: "cloud" } } } } }');
    const added = await sb.run(["channels", "add", "--channel", "whatsapp", "--account", "home"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("pincer channels login --channel whatsapp --account home");
    const again = await sb.run(["channels", "add", "--channel", "whatsapp", "--account", "biz"]);
    expect(again.code).toBe(0);
    const listed = JSON.parse((await sb.run(["channels", "list", "--json"])).stdout);
    expect(listed.channels.map((row: { accountId: string }) => row.accountId).sort()).toEqual([
      "biz",
      "home",
    ]);
    expect(readFileSync(sb.configPath, "utf8")).toContain('transport: "cloud"');
    expect(readFileSync(sb.configPath, "utf8")).not.toContain("botToken");
    const token = await sb.run(
      ["channels", "add", "--channel", "whatsapp", "--account", "x", "--token-stdin"],
      "abc\n",
    );
    expect(token.code).toBe(2);
    expect(token.stderr).toContain("no bot token");
    expect(readFileSync(sb.configPath, "utf8")).not.toContain("abc");
  });

  it("status without a gateway says so and shows the configured accounts", async () => {
    const sb = createCliSandbox();
    sb.writeConfig('{ channels: { telegram: { botToken: "x" } } }');
    const res = await sb.run([
      "channels",
      "status",
      "--url",
      "ws://127.0.0.1:9",
      "--timeout",
      "500",
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("gateway not running");
    expect(res.stdout).toContain("telegram/default");
  });

  it("message send needs a running gateway", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const res = await sb.run([
      "message",
      "send",
      "--channel",
      "telegram",
      "--to",
      "1",
      "-m",
      "hi",
      "--url",
      "ws://127.0.0.1:9",
      "--timeout",
      "500",
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("gateway not reachable");
  });
});

describe("pincer pairing", () => {
  it("lists, approves and rejects codes from the credentials store", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const store = createPairingStore({ stateDir: sb.stateDir });
    const a = store.request({
      channel: "telegram",
      accountId: "default",
      senderId: "1",
      name: "Ann",
    });
    const b = store.request({ channel: "telegram", accountId: "default", senderId: "2" });
    const codeA = (a as { code: string }).code;
    const codeB = (b as { code: string }).code;
    const listed = await sb.run(["pairing", "list"]);
    expect(listed.stdout).toContain(codeA);
    expect(listed.stdout).toContain("(Ann)");
    expect((await sb.run(["pairing", "approve", "telegram", codeA])).stdout).toContain(
      "Approved telegram sender 1",
    );
    expect((await sb.run(["pairing", "reject", "telegram", codeB, "--json"])).stdout).toContain(
      '"rejected": true',
    );
    expect((await sb.run(["pairing", "approve", "telegram", codeB])).code).toBe(1);
    expect(store.allowFrom("telegram", "default")).toEqual(["1"]);
    expect(
      JSON.parse((await sb.run(["pairing", "list", "--json", "--channel", "telegram"])).stdout)
        .requests,
    ).toEqual([]);
  });
});
