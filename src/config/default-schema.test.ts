// Integration check: the loader's default schema is the protocol's OpenClawConfigSchema.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { loadConfig } from "./load.js";

const MULTI_AGENT_CONFIG = `{
  agents: {
    list: [
      { id: "home", default: true, workspace: "~/.openclaw/workspace-home", agentDir: "~/.openclaw/agents/home/agent" },
      { id: "work", workspace: "~/.openclaw/workspace-work", agentDir: "~/.openclaw/agents/work/agent" },
    ],
  },
  bindings: [
    { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
    { agentId: "work", match: { channel: "whatsapp", peer: { kind: "direct", id: "+15551234567" } } },
  ],
  channels: {
    whatsapp: { accounts: { personal: {}, biz: {} } },
    telegram: { enabled: true, botToken: "\${TG_TOKEN}", dmPolicy: "pairing", allowFrom: ["tg:123456789"] },
  },
}
`;

function loadText(text: string) {
  const dir = makeTempDir("pincer-schema-");
  writeFileSync(join(dir, "openclaw.json"), text);
  return loadConfig({ env: { HOME: dir, OPENCLAW_STATE_DIR: dir, TG_TOKEN: "1:x" } });
}

describe("default config schema", () => {
  it("accepts a multi-agent config as OpenClaw's docs show it", () => {
    const loaded = loadText(MULTI_AGENT_CONFIG);
    expect(loaded.issues).toEqual([]);
    expect(loaded.valid).toBe(true);
  });

  it("reports typos in top-level keys and enum values with suggestions", () => {
    const loaded = loadText(
      MULTI_AGENT_CONFIG.replace("bindings: [", "bindngs: [").replace(
        'dmPolicy: "pairing"',
        'dmPolicy: "opne"',
      ),
    );
    expect(loaded.valid).toBe(false);
    const messages = loaded.issues.map((issue) => `${issue.path}@${issue.line}: ${issue.message}`);
    expect(messages).toContain('bindngs@8: unknown key "bindngs" — did you mean "bindings"?');
    expect(messages).toContain(
      'channels.telegram.dmPolicy@14: must be one of "pairing", "allowlist", "open", "disabled" (got "opne") — did you mean "open"?',
    );
  });
});

describe("generated run-time schema", () => {
  it("matches the TypeBox source (run `npm run gen` after changing src/protocol/config)", async () => {
    const { OpenClawConfigSchema } = await import("../protocol/config/index.js");
    const { CONFIG_JSON_SCHEMA } = await import("../protocol/config/schema.generated.js");
    const { compactSchema } = await import("./schema-compact.js");
    expect(CONFIG_JSON_SCHEMA).toEqual(compactSchema(OpenClawConfigSchema));
  });
});
