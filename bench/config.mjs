// Config load + validate time for a 500-agent config (JSON5 parse, includes, env, schema, isolation rules).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../dist/index.js";
import { medianMs } from "./measure.mjs";

/** Writes a JSON5 config with `agents` agents, one binding each, into a fresh temp state dir. */
export function writeLargeConfig(agents) {
  const dir = mkdtempSync(join(tmpdir(), "pincer-bench-"));
  const list = Array.from({ length: agents }, (_, i) => ({
    id: `agent${i}`,
    name: `Agent ${i}`,
    model: { primary: "anthropic/claude-sonnet-4-5", fallbacks: ["openai/gpt-5.2"] },
    tools: { allow: ["read", "exec"], deny: ["browser"] },
    groupChat: { mentionPatterns: [`@agent${i}`] },
  }));
  const bindings = list.map((agent, i) => ({
    agentId: agent.id,
    match: { channel: "whatsapp", accountId: `acct${i}`, peer: { kind: "group", id: `${i}@g.us` } },
  }));
  const text = `// bench config\n${JSON.stringify({ agents: { list }, bindings }, null, 2)}\n`;
  writeFileSync(join(dir, "openclaw.json"), text);
  return dir;
}

/** Bench rows: median load + validate time of a 500-agent config. */
export async function configRows() {
  const dir = writeLargeConfig(500);
  const env = { HOME: dir, OPENCLAW_STATE_DIR: dir };
  let valid = true;
  const ms = await medianMs(() => {
    valid = loadConfig({ env }).valid;
  }, 15);
  rmSync(dir, { recursive: true, force: true });
  return [
    {
      name: "config load + validate, 500 agents",
      result: `${ms.toFixed(1)} ms${valid ? "" : " (INVALID)"}`,
      target: "",
    },
  ];
}
