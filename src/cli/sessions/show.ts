// `pincer sessions show KEY [--tail N] [--agent ID] [--json]`: one session's metadata and the last entries
// of its transcript's current branch. Read-only: safe while the gateway runs.
import {
  currentBranch,
  describeEntry,
  isMessageEntry,
  type TranscriptEntry,
} from "../../sessions/index.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
  printLine,
  style,
} from "../command-context.js";
import { loadForCli } from "../load.js";
import { formatAge } from "../time-format.js";
import type { showOptions } from "./commands.js";
import {
  findSessionKey,
  formatTokens,
  openConfiguredStore,
  resolveSessionTarget,
  sessionKind,
} from "./common.js";

function parseTail(raw: string | undefined): number {
  if (raw === undefined) return 20;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new CliError(`--tail expects a whole number, got "${raw}"`, ExitCode.usage);
  }
  return n;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** An entry's kind and text; a failed or aborted turn shows as such, with its error. */
function describeShown(entry: TranscriptEntry): { kind: string; text: string; failed: boolean } {
  if (isMessageEntry(entry) && entry.message.role === "assistant") {
    const { stopReason, errorMessage } = entry.message as {
      stopReason?: string;
      errorMessage?: string;
    };
    if (stopReason === "error" || stopReason === "aborted") {
      const kind = stopReason === "error" ? "failed" : "aborted";
      return { kind, text: errorMessage ?? `turn ${kind}`, failed: true };
    }
  }
  return { ...describeEntry(entry), failed: false };
}

/** Prints a session's entry and the tail of its current branch. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof showOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const tail = parseTail(opts.tail);
  const target = resolveSessionTarget(loaded, {
    rawKey: args[0] ?? "",
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
  });
  const store = await openConfiguredStore(ctx, { loaded, agent: target.agent });
  let key: string;
  let transcript: Awaited<ReturnType<typeof store.readTranscriptAsync>>;
  try {
    key = findSessionKey(store, target);
    transcript = await store.readTranscriptAsync(key);
  } finally {
    if (!store.readOnly) await store.close(); // a PostgreSQL store: ends its pool
  }
  const entry = store.get(key)!;
  const branch = transcript ? currentBranch(transcript.entries) : [];
  const shown = tail === 0 ? [] : branch.slice(-tail);

  if (opts.json) {
    printJson(ctx, {
      agentId: target.agent.id,
      key,
      storePath: store.storePath,
      entry,
      transcript: transcript
        ? {
            file: transcript.file,
            exists: transcript.exists,
            version: transcript.version ?? null,
            entries: transcript.entries.length,
            branchLength: branch.length,
            issues: transcript.issues,
            tail: shown,
          }
        : null,
    });
    return 0;
  }
  const s = style(ctx);
  const home = loaded.paths.home;
  printLine(ctx, s.bold(`Session ${key}`) + s.dim(` (agent ${target.agent.id})`));
  printLine(ctx, `  sessionId   ${entry.sessionId}`);
  printLine(
    ctx,
    `  updated     ${new Date(entry.updatedAt).toISOString()} (${formatAge(Date.now() - entry.updatedAt)})`,
  );
  const route = [entry.lastChannel, entry.lastTo].filter(Boolean).join(" → ");
  const account = entry.lastAccountId ? ` (account ${entry.lastAccountId})` : "";
  printLine(ctx, `  kind        ${sessionKind(key, entry)}${route ? ` · ${route}${account}` : ""}`);
  const model =
    entry.modelOverride ?? (entry.model ? `${entry.modelProvider ?? "?"}/${entry.model}` : "-");
  printLine(
    ctx,
    `  model       ${model} · tokens in ${formatTokens(entry.inputTokens)} / out ${formatTokens(entry.outputTokens)} / context ${formatTokens(entry.totalTokens)} · compactions ${entry.compactionCount ?? 0}`,
  );
  if (!transcript?.exists) {
    printLine(
      ctx,
      `  transcript  ${transcript ? displayPath(transcript.file, home) : "-"} ${s.dim("(not created yet)")}`,
    );
    return 0;
  }
  printLine(
    ctx,
    `  transcript  ${displayPath(transcript.file, home)} (${transcript.entries.length} entries, v${transcript.version ?? "?"})`,
  );
  if (transcript.issues.length > 0) {
    printLine(
      ctx,
      s.yellow(`  ${transcript.issues.length} unreadable line(s) skipped (see warnings)`),
    );
  }
  if (shown.length === 0) return 0;
  printLine(ctx, s.bold(`Last ${shown.length} of ${branch.length} entries on the current branch:`));
  for (const item of shown) {
    const { kind, text, failed } = describeShown(item);
    const time = item.timestamp ? item.timestamp.replace("T", " ").slice(0, 19) : "";
    const label = failed ? s.red(kind.padEnd(12)) : s.cyan(kind.padEnd(12));
    printLine(ctx, `  ${s.dim(time)}  ${label} ${oneLine(text, failed ? 200 : 100)}`);
  }
  return 0;
}
