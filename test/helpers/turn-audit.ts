// Reads a gateway's state dir after the fact (as a restart would): the session index (sessions.json
// plus its journal), every transcript in the sessions dir, and the WS turn journal, to count how many
// times each run's prompt and reply landed and to find transcripts no session points to.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { turnJournalPath } from "../../src/gateway/runs/turn-journal.js";
import {
  currentBranch,
  isMessageEntry,
  type MessageEntry,
  openSessionStore,
  readTranscript,
} from "../../src/sessions/index.js";

/** What the state dir says about one run. */
export interface RunAudit {
  /** Prompt entries marked with the run id, in every transcript (branches included). */
  prompts: number;
  /** Final replies (assistant, not a tool call, error or abort) after its prompt on the branch. */
  replies: number;
  /** Error replies after its prompt on the branch, or marked with its run id (failed visibly). */
  errors: number;
  /** Text of the last reply. */
  text?: string;
}

/** The audit of one agent's sessions. */
export interface StateAudit {
  runs: Map<string, RunAudit>;
  /** Transcript files (not archives) no index entry points to. */
  orphans: string[];
  /** Index entries whose transcript holds a user message (sanity: the index is not empty). */
  indexed: number;
}

/** Audits `<stateDir>/agents/<agentId>/sessions`. */
export function auditState(stateDir: string, agentId = "main"): StateAudit {
  const dir = join(stateDir, "agents", agentId, "sessions");
  const runs = new Map<string, RunAudit>();
  const audit = (runId: string) => {
    const found = runs.get(runId) ?? { prompts: 0, replies: 0, errors: 0 };
    runs.set(runId, found);
    return found;
  };
  if (!existsSync(dir)) return { runs, orphans: [], indexed: 0 };
  const store = openSessionStore({ storePath: join(dir, "sessions.json") });
  const pointed = new Set(store.list().map(({ key }) => store.transcriptPath(key)));
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  const orphans = files.map((name) => join(dir, name)).filter((file) => !pointed.has(file));
  let indexed = 0;
  for (const file of files.map((name) => join(dir, name))) {
    const { entries } = readTranscript({ file });
    for (const entry of entries) {
      const marked = isMessageEntry(entry) && typeof entry.runId === "string";
      if (marked && entry.message.role === "user") audit(String(entry.runId)).prompts++;
    }
    if (pointed.has(file) && entries.some(isMessageEntry)) indexed++;
    let current: RunAudit | undefined;
    for (const entry of currentBranch(entries)) {
      if (!isMessageEntry(entry)) continue;
      const { message } = entry;
      if (message.role === "user" && typeof entry.runId === "string") current = audit(entry.runId);
      if (message.role !== "assistant") continue;
      // A failed recovered turn's error reply names its run (it may follow another turn).
      if (typeof entry.runId === "string") {
        audit(entry.runId).errors++;
        continue;
      }
      if (!current) continue;
      if (message.stopReason === "error") current.errors++;
      else if (message.stopReason !== "toolUse" && message.stopReason !== "aborted") {
        current.replies++;
        const parts = Array.isArray(message.content) ? message.content : [];
        current.text = parts.map((part: { text?: string }) => part.text ?? "").join("");
      }
    }
  }
  return { runs, orphans, indexed };
}

/** How each token's prompt landed on the current branches: `copies` in all; `answered`, copies a
 *  final reply follows before the next prompt; `repeated`, unanswered copies the next prompt repeats
 *  (a turn run again in place: its text twice in a row). */
export interface PromptCopies {
  copies: number;
  answered: number;
  repeated: number;
}

/** {@link PromptCopies} of every match of `pattern` (a global regex of the tokens a test puts in its
 *  prompts) in the user entries of every transcript of the agent. */
export function promptCopies(
  stateDir: string,
  pattern: RegExp,
  agentId = "main",
): Map<string, PromptCopies> {
  const dir = join(stateDir, "agents", agentId, "sessions");
  const found = new Map<string, PromptCopies>();
  if (!existsSync(dir)) return found;
  const tokensOf = (entry: MessageEntry) =>
    new Set(JSON.stringify(entry.message.content).match(pattern) ?? []);
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl"))) {
    const branch = currentBranch(readTranscript({ file: join(dir, name) }).entries).filter(
      isMessageEntry,
    );
    branch.forEach((entry, index) => {
      if (entry.message.role !== "user") return;
      const rest = branch.slice(index + 1);
      const next = rest.findIndex((e) => e.message.role === "user");
      const until = next < 0 ? rest : rest.slice(0, next);
      const answered = until.some((e) => isFinal(e.message));
      const nextTokens = next < 0 ? new Set<string>() : tokensOf(rest[next]!);
      for (const token of tokensOf(entry)) {
        const copies = found.get(token) ?? { copies: 0, answered: 0, repeated: 0 };
        copies.copies++;
        if (answered) copies.answered++;
        else if (nextTokens.has(token)) copies.repeated++;
        found.set(token, copies);
      }
    });
  }
  return found;
}

function isFinal(message: MessageEntry["message"]): boolean {
  const stop = message.stopReason;
  return (
    message.role === "assistant" && stop !== "toolUse" && stop !== "aborted" && stop !== "error"
  );
}

/** The turn journal's lines, parsed (torn ones skipped). */
export function readTurnJournal(stateDir: string): Array<Record<string, unknown>> {
  const path = turnJournalPath(stateDir);
  if (!existsSync(path)) return [];
  const lines: Array<Record<string, unknown>> = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      if (line.trim()) lines.push(JSON.parse(line));
    } catch {
      // A torn last line: not a record.
    }
  }
  return lines;
}

/** Keys the journal holds as pending (accepted, not settled). */
export function pendingTurnKeys(stateDir: string): string[] {
  const pending = new Set<string>();
  for (const line of readTurnJournal(stateDir)) {
    if (line.type === "accepted") pending.add(String(line.key));
    else pending.delete(String(line.key));
  }
  return [...pending];
}
