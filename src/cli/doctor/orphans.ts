// doctor's orphan-transcript check: `*.jsonl` files in an agent's sessions dir that no entry of its
// sessions.json (journal replayed, read-only) points to. Doctor never deletes or moves history: OpenClaw's
// doctor archives orphans as `.deleted.<ts>` only after an interactive confirmation and leaves them in place
// under --fix, --yes and headless runs; Pincer reports them and leaves them in place always.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { listAgents } from "../../agents/roster.js";
import { createEntryLogger } from "../../lib/logger.js";
import { openSessionStore } from "../../sessions/index.js";
import { type DoctorCheck, type DoctorFinding, errorText } from "./finding.js";

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return resolve(path);
    throw err;
  }
}

function transcriptFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
  return names
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

function orphansOf(storePath: string, findings: DoctorFinding[]): void {
  const store = openSessionStore({
    storePath,
    logger: createEntryLogger((entry) => {
      if (entry.level !== "warn") return;
      findings.push({
        checkId: "orphan-transcripts",
        severity: "warning",
        message: `sessions store ${storePath}: ${entry.msg}`,
        path: storePath,
      });
    }),
  });
  const referenced = new Set<string>();
  for (const { key } of store.list()) {
    const file = store.transcriptPath(key);
    if (file) referenced.add(realOrResolved(file));
  }
  for (const file of transcriptFiles(store.sessionsDir)) {
    if (referenced.has(realOrResolved(file))) continue;
    const stats = statSync(file);
    findings.push({
      checkId: "orphan-transcripts",
      severity: "warning",
      message: `transcript ${file} (${stats.size} bytes, last written ${stats.mtime.toISOString()}) is not referenced by any session in ${storePath}`,
      path: file,
      fixHint:
        "left in place: doctor never deletes history. Read it (it is JSONL), then move it out of the sessions dir or delete it yourself",
    });
  }
}

/** Reports transcripts that no session index entry references. */
export const orphansCheck: DoctorCheck = {
  id: "orphan-transcripts",
  detect: async ({ loaded }) => {
    const stores = new Set(
      listAgents(loaded.config, loaded.paths).map((agent) => agent.sessionStorePath),
    );
    const findings: DoctorFinding[] = [];
    for (const storePath of stores) {
      try {
        orphansOf(storePath, findings);
      } catch (err) {
        findings.push({
          checkId: "orphan-transcripts",
          severity: "error",
          message: `could not read the sessions of ${storePath}: ${errorText(err)}`,
          path: storePath,
        });
      }
    }
    return findings;
  },
};
