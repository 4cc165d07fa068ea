// The README's scenario configs are real: each one validates, and routes the way the README says.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, type OpenClawConfig, resolveAgentRoute } from "../src/index.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const json5Blocks = (text: string) =>
  [...text.matchAll(/```json5\n([\s\S]*?)```/g)].map((m) => m[1]);
/** Every json5 config in the README (they must all validate); the scenarios are those under "## Scenarios". */
const configs = json5Blocks(readme);
// The section ends at the next "## " heading (later sections have configs of their own).
const scenariosStart = readme.indexOf("## Scenarios");
const scenariosEnd = readme.indexOf("\n## ", scenariosStart + 1);
const scenarios = json5Blocks(
  readme.slice(scenariosStart, scenariosEnd === -1 ? undefined : scenariosEnd),
);

function load(text: string) {
  const dir = makeTempDir("pincer-scenario-");
  writeFileSync(join(dir, "openclaw.json"), text);
  const env = {
    HOME: dir,
    OPENCLAW_STATE_DIR: join(dir, ".openclaw"),
    OPENCLAW_CONFIG_PATH: join(dir, "openclaw.json"),
    TELEGRAM_MAIN_TOKEN: "1:main",
    TELEGRAM_ALERTS_TOKEN: "2:alerts",
    TELEGRAM_BOT_TOKEN: "3:bot",
    DISCORD_BOT_TOKEN: "discord-token",
    WA_BIZ_TOKEN: "wa-token",
    WA_BIZ_APP_SECRET: "wa-secret",
    WA_BIZ_VERIFY: "wa-verify",
    BLUEBUBBLES_PASSWORD: "bb-password",
    BB_HOME_PASSWORD: "bb-home-password",
    PINCER_HOOK_TOKEN: "hook-token",
  };
  return loadConfig({ env });
}

type Inbound = Omit<Parameters<typeof resolveAgentRoute>[0], "cfg">;
const route = (cfg: OpenClawConfig, inbound: Inbound) => resolveAgentRoute({ cfg, ...inbound });

describe("README scenarios", () => {
  it("has the eight scenarios", () => {
    expect(scenarios.length).toBe(8);
  });

  it.each(configs.map((text, i) => [i, text]))(
    "README config %i validates without errors",
    (_i, text) => {
      const loaded = load(text as string);
      expect(loaded.issues.filter((issue) => issue.severity === "error")).toEqual([]);
      expect(loaded.valid).toBe(true);
    },
  );

  it("two WhatsApp numbers: accounts split, one group overridden to work", () => {
    const cfg = load(scenarios[0]).config;
    expect(
      route(cfg, {
        channel: "whatsapp",
        accountId: "personal",
        peer: { kind: "direct", id: "+1" },
      }),
    ).toMatchObject({
      agentId: "home",
      matchedBy: "binding.account",
      sessionKey: "agent:home:main",
    });
    expect(
      route(cfg, { channel: "whatsapp", accountId: "biz", peer: { kind: "direct", id: "+1" } })
        .agentId,
    ).toBe("work");
    expect(
      route(cfg, {
        channel: "whatsapp",
        accountId: "personal",
        peer: { kind: "group", id: "1203630@g.us" },
      }),
    ).toMatchObject({
      agentId: "work",
      matchedBy: "binding.peer",
      sessionKey: "agent:work:whatsapp:group:1203630@g.us",
    });
  });

  it("chat/opus: the one DM goes to opus, the rest of WhatsApp to chat, Telegram to opus", () => {
    const cfg = load(scenarios[1]).config;
    expect(
      route(cfg, { channel: "whatsapp", peer: { kind: "direct", id: "+15551234567" } }),
    ).toMatchObject({ agentId: "opus", matchedBy: "binding.peer" });
    expect(
      route(cfg, { channel: "whatsapp", peer: { kind: "direct", id: "+15550000000" } }),
    ).toMatchObject({ agentId: "chat", matchedBy: "binding.account" });
    expect(route(cfg, { channel: "telegram", peer: { kind: "group", id: "-100" } })).toMatchObject({
      agentId: "opus",
      sessionKey: "agent:opus:telegram:group:-100",
    });
  });

  it("two Telegram bots reach two agents", () => {
    const cfg = load(scenarios[2]).config;
    expect(route(cfg, { channel: "telegram", peer: { kind: "direct", id: "42" } }).agentId).toBe(
      "main",
    );
    expect(
      route(cfg, { channel: "telegram", accountId: "alerts", peer: { kind: "direct", id: "42" } })
        .agentId,
    ).toBe("alerts");
  });

  it("alex and mia each get their own agent and session", () => {
    const cfg = load(scenarios[3]).config;
    expect(
      route(cfg, { channel: "whatsapp", peer: { kind: "direct", id: "+15551230001" } }),
    ).toMatchObject({ agentId: "alex", sessionKey: "agent:alex:main" });
    expect(
      route(cfg, { channel: "whatsapp", peer: { kind: "direct", id: "+15551230002" } }),
    ).toMatchObject({ agentId: "mia", sessionKey: "agent:mia:main" });
  });

  it("the family group reaches the family agent", () => {
    const cfg = load(scenarios[4]).config;
    expect(
      route(cfg, { channel: "whatsapp", peer: { kind: "group", id: "1203630@g.us" } }),
    ).toMatchObject({ agentId: "family", matchedBy: "binding.peer" });
  });

  it("Slack team and Telegram group reach support; everything else the default (first) agent", () => {
    const cfg = load(scenarios[5]).config;
    expect(
      route(cfg, { channel: "slack", teamId: "T123", peer: { kind: "channel", id: "C1" } }),
    ).toMatchObject({
      agentId: "support",
      matchedBy: "binding.team",
      sessionKey: "agent:support:slack:channel:c1",
    });
    expect(
      route(cfg, { channel: "telegram", peer: { kind: "group", id: "-100123" } }).matchedBy,
    ).toBe("binding.peer");
    expect(route(cfg, { channel: "discord", peer: { kind: "channel", id: "1" } })).toMatchObject({
      agentId: "support",
      matchedBy: "default",
    });
  });

  it("a Discord server: #ops and its threads to ops, the admin role to admin, the rest to community", () => {
    const cfg = load(scenarios[6]).config;
    const guild = { channel: "discord", guildId: "111111111111111111" };
    const ops = { kind: "channel", id: "222222222222222222" };
    expect(
      route(cfg, { ...guild, peer: { kind: "channel", id: "444" }, parentPeer: ops }),
    ).toMatchObject({ agentId: "ops", matchedBy: "binding.peer.parent" });
    expect(
      route(cfg, {
        ...guild,
        peer: { kind: "channel", id: "555" },
        memberRoleIds: ["999", "333333333333333333"],
      }),
    ).toMatchObject({ agentId: "admin", matchedBy: "binding.guild+roles" });
    expect(route(cfg, { ...guild, peer: { kind: "channel", id: "555" } })).toMatchObject({
      agentId: "community",
      matchedBy: "binding.guild",
      sessionKey: "agent:community:discord:channel:555",
    });
  });
});
