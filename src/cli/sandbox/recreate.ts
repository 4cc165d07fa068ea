// `pincer sandbox recreate --agent ID | --session KEY | --all`: removes the matching sandboxes of
// every backend; the next tool call creates them afresh (and runs setupCommand again).
import { normalizeAgentId } from "../../routing/ids.js";
import { resolveAgentIdFromSessionKey, toAgentStoreSessionKey } from "../../routing/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { recreateOptions } from "./commands.js";
import { type ListedSandbox, listAllSandboxes, removeSandbox } from "./instances.js";

/** Removes the selected sandboxes; exit 1 when one could not be removed. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof recreateOptions>,
): Promise<number> {
  const chosen = [opts.agent, opts.session, opts.all ? true : undefined].filter(Boolean).length;
  if (chosen !== 1) throw new CliError("pass exactly one of --agent ID, --session KEY or --all");
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.resolved;
  const { sandboxes, problems } = await listAllSandboxes({ cfg, env: ctx.env });
  for (const problem of problems) ctx.stderr(`warning: ${problem.backend}: ${problem.error}\n`);
  const agent = opts.agent ? normalizeAgentId(opts.agent) : undefined;
  const sessionAgent = opts.session
    ? resolveAgentIdFromSessionKey(opts.session, cfg.defaultAgentId)
    : undefined;
  const sessionKey =
    opts.session && sessionAgent
      ? toAgentStoreSessionKey({
          agentId: sessionAgent,
          requestKey: opts.session,
          mainKey: cfg.config.session?.mainKey,
        })
      : undefined;
  const matches = (box: ListedSandbox): boolean => {
    if (opts.all) return true;
    if (agent) return box.agentId === agent;
    // A session's sandbox: its own (scope session), its agent's (scope agent) or the shared one.
    if (box.scope === "session") return box.sessionKey === sessionKey;
    if (box.scope === "agent") return box.agentId === sessionAgent;
    return true;
  };
  const removed: ListedSandbox[] = [];
  const failed: Array<{ sandbox: ListedSandbox; error: string }> = [];
  for (const box of sandboxes.filter(matches)) {
    const error = await removeSandbox({ sandbox: box, env: ctx.env });
    if (error) failed.push({ sandbox: box, error });
    else removed.push(box);
  }
  if (opts.json) {
    printJson(ctx, { removed, failed });
    return failed.length > 0 ? 1 : 0;
  }
  for (const box of removed)
    printLine(ctx, `removed ${box.backend} sandbox ${box.scopeKey} (agent ${box.agentId})`);
  for (const { sandbox, error } of failed) ctx.stderr(`error: ${sandbox.scopeKey}: ${error}\n`);
  printLine(
    ctx,
    removed.length === 0 && failed.length === 0
      ? "No matching sandbox."
      : `Removed ${removed.length}; each is recreated on its next tool call.`,
  );
  return failed.length > 0 ? 1 : 0;
}
