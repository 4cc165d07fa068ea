// Bundled hook `boot-md`: on `gateway:startup`, every agent whose workspace has a non-empty
// `BOOT.md` runs it as a turn in its main session, with OpenClaw's boot prompt (use the message
// tool to send anything, then answer NO_REPLY). The turn is started, not awaited: the gateway does
// not wait for a checklist, and the shutdown drain waits for it like any run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SILENT_REPLY_TOKEN } from "../../agents/system-prompt-sections.js";
import { buildAgentMainSessionKey } from "../../routing/index.js";
import { type BundledHook, bundledMetadata } from "./types.js";

/** The file the hook runs. */
export const BOOT_FILENAME = "BOOT.md";

/** OpenClaw's boot prompt around the file's text. */
export function buildBootPrompt(content: string): string {
  return [
    "You are running a boot check. Follow BOOT.md instructions exactly.",
    "",
    "BOOT.md:",
    content,
    "",
    "If BOOT.md asks you to send a message, use the message tool (action=send with channel + target).",
    "Use the `target` field (not `to`) for message tool destinations.",
    `After sending with the message tool, reply with ONLY: ${SILENT_REPLY_TOKEN}.`,
    `If nothing needs attention, reply with ONLY: ${SILENT_REPLY_TOKEN}.`,
  ].join("\n");
}

function readBoot(dir: string): string | undefined {
  try {
    const text = readFileSync(join(dir, BOOT_FILENAME), "utf8");
    return text.trim() ? text : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The hook. */
export const bootMdHook: BundledHook = {
  metadata: bundledMetadata({
    name: "boot-md",
    description: "Run BOOT.md on gateway startup",
    emoji: "🚀",
    events: ["gateway:startup"],
  }),
  create: (services) => async (event) => {
    if (event.type !== "gateway" || event.action !== "startup") return;
    const cfg = services.config();
    const mainKey = cfg.config.session?.mainKey;
    const seen = new Set<string>();
    for (const agent of cfg.agents) {
      if (seen.has(agent.workspace)) continue;
      seen.add(agent.workspace);
      const content = readBoot(agent.workspace);
      if (content === undefined) continue;
      const sessionKey = buildAgentMainSessionKey({ agentId: agent.id, mainKey });
      services.logger.info({ agentId: agent.id, sessionKey }, "boot-md: running BOOT.md");
      await services.startTurn({
        agentId: agent.id,
        sessionKey,
        message: buildBootPrompt(content),
      });
    }
  },
};
