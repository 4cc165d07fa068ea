// `<stateDir>/exec-approvals.json`, OpenClaw's approvals file: `{ version: 1, defaults?, agents?:
// { <agentId>: { allowlist?: [{ id?, pattern, lastUsedAt?, lastUsedCommand?, lastResolvedPath? }] } } }`.
// Pincer reads each agent's allowlist (its own entry, `*`'s, and for "main" the legacy "default")
// and appends "allow-always" patterns; every other field (socket, defaults, security/ask per agent) is
// kept as stored and not acted on (the policy is `tools.exec.*`). Writes are atomic and keep every
// other entry; a file that does not parse is never overwritten, and reads report it by path.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { readTextIfExists } from "../../lib/read-if-exists.js";
import type { AllowlistAdded, AllowlistPatterns } from "./gate.js";

/** File name of the approvals file in the state dir (OpenClaw's). */
export const APPROVALS_FILE_NAME = "exec-approvals.json";

/** One allowlist entry as stored. */
export interface AllowlistEntry {
  id?: string;
  pattern: string;
  source?: string;
  lastUsedAt?: number;
  lastUsedCommand?: string;
  lastResolvedPath?: string;
  [field: string]: unknown;
}

/** The parsed file (unknown fields kept). */
export interface ApprovalsFile {
  version: 1;
  agents?: Record<string, { allowlist?: AllowlistEntry[]; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** A read: the file (an empty one when it does not exist), or what is wrong with it. */
export type ApprovalsRead = { ok: true; file: ApprovalsFile } | { ok: false; error: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Why the parsed JSON is not an approvals file (undefined: it is one). */
function shapeError(data: unknown): string | undefined {
  if (!isObject(data)) return "expected a JSON object";
  if (data.version !== 1) return `"version" is ${JSON.stringify(data.version)}, expected 1`;
  if (data.agents === undefined) return undefined;
  if (!isObject(data.agents)) return '"agents" must be an object';
  for (const [agentId, agent] of Object.entries(data.agents)) {
    if (!isObject(agent)) return `"agents.${agentId}" must be an object`;
    if (agent.allowlist === undefined) continue;
    if (!Array.isArray(agent.allowlist)) return `"agents.${agentId}.allowlist" must be an array`;
    const bad = agent.allowlist.findIndex((e) => !isObject(e) || typeof e.pattern !== "string");
    if (bad >= 0) return `"agents.${agentId}.allowlist[${bad}].pattern" must be a string`;
  }
  return undefined;
}

/** The approvals file of one state dir: read per check (it is small), written atomically. */
export class ApprovalsFileStore {
  /** Absolute path of the file. */
  readonly path: string;
  private readonly now: () => number;

  constructor(params: { stateDir: string; now?: () => number }) {
    this.path = join(params.stateDir, APPROVALS_FILE_NAME);
    this.now = params.now ?? Date.now;
  }

  /** The file, `{ version: 1 }` when absent, or an error naming the file and the problem. */
  read(): ApprovalsRead {
    let text: string | undefined;
    try {
      text = readTextIfExists(this.path);
    } catch (err) {
      return { ok: false, error: `cannot read ${this.path}: ${String(err)}` };
    }
    if (text === undefined || text.trim() === "") return { ok: true, file: { version: 1 } };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return { ok: false, error: `${this.path} is not valid JSON: ${(err as Error).message}` };
    }
    const problem = shapeError(data);
    if (problem) return { ok: false, error: `${this.path} is not an approvals file: ${problem}` };
    return { ok: true, file: data as ApprovalsFile };
  }

  /** The patterns that apply to `agentId`, or the read error. */
  patternsFor(agentId: string): AllowlistPatterns {
    const read = this.read();
    if (!read.ok) return read;
    const agents = read.file.agents ?? {};
    const keys = agentId === "main" ? [agentId, "default", "*"] : [agentId, "*"];
    const patterns = keys.flatMap((key) => (agents[key]?.allowlist ?? []).map((e) => e.pattern));
    return { ok: true, patterns };
  }

  /**
   * Appends `patterns` (the ones not already listed for the agent) to `agents.<agentId>.allowlist`,
   * marked "allow-always" with the command that earned them; everything else is kept. Synchronous:
   * no other write of this process interleaves between the read and the rename.
   */
  addPatterns(params: {
    agentId: string;
    patterns: readonly string[];
    command: string;
  }): AllowlistAdded {
    const read = this.read();
    if (!read.ok) return read;
    const file = read.file;
    file.agents ??= {};
    const agent = file.agents[params.agentId] ?? {};
    file.agents[params.agentId] = agent;
    agent.allowlist ??= [];
    const allowlist = agent.allowlist;
    const known = new Set(allowlist.map((e) => e.pattern.toLowerCase()));
    const added = [...new Set(params.patterns)].filter((p) => !known.has(p.toLowerCase()));
    if (added.length === 0) return { ok: true, added };
    for (const pattern of added) {
      allowlist.push({
        id: randomUUID(),
        pattern,
        source: "allow-always",
        lastUsedAt: this.now(),
        lastUsedCommand: params.command,
        lastResolvedPath: pattern,
      });
    }
    try {
      writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    } catch (err) {
      return { ok: false, error: `cannot write ${this.path}: ${String(err)}` };
    }
    return { ok: true, added };
  }
}
