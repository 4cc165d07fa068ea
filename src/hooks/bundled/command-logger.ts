// Bundled hook `command-logger`: appends every command event (`/new`, `/reset`, `/stop`) as one
// JSON line to `<stateDir>/logs/commands.log`, in OpenClaw's format
// `{timestamp, action, sessionKey, senderId, source}`.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { InternalHookEvent } from "../types.js";
import { type BundledHook, bundledMetadata } from "./types.js";

/** Where the log goes, under the state dir. */
export function commandLogPath(stateDir: string): string {
  return join(stateDir, "logs", "commands.log");
}

/** The log line of one event. */
export function commandLogLine(event: InternalHookEvent): string {
  const { context } = event;
  return JSON.stringify({
    timestamp: event.timestamp.toISOString(),
    action: event.action,
    sessionKey: event.sessionKey,
    senderId: typeof context.senderId === "string" ? context.senderId : "unknown",
    source: typeof context.commandSource === "string" ? context.commandSource : "unknown",
  });
}

/** The hook. */
export const commandLoggerHook: BundledHook = {
  metadata: bundledMetadata({
    name: "command-logger",
    description: "Log all command events to <stateDir>/logs/commands.log (JSONL)",
    emoji: "📝",
    events: ["command"],
  }),
  create: (services) => (event) => {
    if (event.type !== "command") return;
    const path = commandLogPath(services.stateDir);
    mkdirSync(join(services.stateDir, "logs"), { recursive: true, mode: 0o700 });
    appendFileSync(path, `${commandLogLine(event)}\n`, { mode: 0o600 });
  },
};
