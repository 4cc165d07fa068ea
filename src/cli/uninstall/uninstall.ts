// `pincer uninstall [--service] [--state] [--workspace] [--all] [--yes] [--non-interactive] [--dry-run]`
// (OpenClaw's shape): removes the gateway service, the state dir and/or the configured workspaces; the CLI
// stays. Destructive parts need --yes, or a confirmation on a terminal; --dry-run only lists. The plan
// (../uninstall-plan.ts) never reaches beyond the state dir, the configured workspaces and the service unit.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { isProcessAlive, readStateDirLock } from "../../sessions/index.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { defaultServiceDeps, resolveServiceTarget, type ServiceDeps } from "../gateway/service.js";
import { uninstallWith as uninstallService } from "../gateway/uninstall.js";
import { loadForCli } from "../load.js";
import {
  isWithin,
  planUninstall,
  type UninstallItem,
  type UninstallPlan,
} from "../uninstall-plan.js";
import type { uninstallOptions } from "./commands.js";

/** What uninstall runs with: the service commands' dependencies and the terminal confirmation. */
export interface UninstallDeps {
  service: ServiceDeps;
  confirm: (message: string) => Promise<boolean>;
}

/** Asks yes/no on the terminal (@clack/prompts); cancelling counts as no. */
export async function confirmOnTerminal(message: string): Promise<boolean> {
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message, initialValue: false });
  return !isCancel(answer) && answer === true;
}

/** Removes `dir` except the paths in `keep` (and the folders leading to them); links are not followed. */
function removeTreeExcept(dir: string, keep: string[]): void {
  const kept = (path: string) => keep.some((entry) => resolve(entry) === resolve(path));
  if (!keep.some((path) => isWithin(dir, path))) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (kept(path)) continue;
    const holdsKept = keep.some((kept) => isWithin(path, kept));
    if (holdsKept && lstatSync(path).isDirectory()) removeTreeExcept(path, keep);
    else rmSync(path, { recursive: true, force: true });
  }
}

function describe(item: UninstallItem): string {
  const what =
    item.kind === "service"
      ? "gateway service unit"
      : item.kind === "state"
        ? "state dir"
        : "workspace";
  const link = item.symlink ? " (a symlink: only the link)" : "";
  const keep = item.keep.length > 0 ? ` (keeping ${item.keep.join(", ")})` : "";
  return `${what} ${item.path}${link}${keep}`;
}

function printPlan(ctx: CliContext, plan: UninstallPlan, dryRun: boolean): void {
  for (const item of plan.remove)
    printLine(ctx, `${dryRun ? "would remove" : "remove"}: ${describe(item)}`);
  for (const item of plan.kept) printLine(ctx, `keep: ${item.path} (${item.reason})`);
  for (const item of plan.refused) printLine(ctx, `refused: ${item.path} (${item.reason})`);
}

/** A live gateway on this state dir, which must stop before its state or workspaces go. */
function liveGateway(stateDir: string): number | undefined {
  const holder = readStateDirLock(stateDir);
  return holder && isProcessAlive(holder.pid) ? holder.pid : undefined;
}

/** Runs the command with explicit dependencies (tests pass a fake systemctl and confirmation). */
export async function uninstallAllWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof uninstallOptions>>,
  deps: UninstallDeps,
): Promise<number> {
  const any = opts.service || opts.state || opts.workspace || opts.all;
  if (!any && !opts.dryRun) {
    throw new CliError(
      "choose what to remove: --service, --state, --workspace or --all (add --dry-run to list what each removes)",
      ExitCode.usage,
    );
  }
  const everything = opts.all === true || !any;
  const scope = {
    service: everything || opts.service === true,
    state: everything || opts.state === true,
    workspace: everything || opts.workspace === true,
  };
  const loaded = loadForCli(ctx, { requireValid: false });
  const target = resolveServiceTarget(ctx);
  const plan = planUninstall({ loaded, scope, service: target });
  const stateDir = loaded.paths.stateDir;
  const touchesState = plan.remove.some((item) => item.kind !== "service");
  const pid = touchesState ? liveGateway(stateDir) : undefined;
  const running =
    pid === undefined ? undefined : `a gateway (pid ${pid}) is running on ${stateDir}`;
  if (opts.dryRun) {
    if (opts.json) printJson(ctx, { dryRun: true, ...plan, ...(running ? { running } : {}) });
    else if (plan.remove.length + plan.refused.length === 0) printLine(ctx, "nothing to remove");
    else printPlan(ctx, plan, true);
    if (running && !opts.json) printLine(ctx, `note: ${running}; it must stop first`);
    return plan.refused.length > 0 ? ExitCode.failure : ExitCode.ok;
  }
  if (running && !plan.remove.some((item) => item.kind === "service")) {
    throw new CliError(`${running}; stop it first (pincer gateway stop), then uninstall`);
  }
  if (plan.remove.length > 0 && !opts.yes) {
    if (opts.nonInteractive || !ctx.isTty) {
      printPlan(ctx, plan, true);
      throw new CliError(
        "uninstall removes the items above; re-run with --yes to do it",
        ExitCode.usage,
      );
    }
    printPlan(ctx, plan, true);
    if (!(await deps.confirm(`Remove ${plan.remove.length} item(s)? This cannot be undone.`))) {
      printLine(ctx, "nothing removed");
      return ExitCode.failure;
    }
  }
  const removed: UninstallItem[] = [];
  const serviceOutput: string[] = [];
  // The service first: stopping it ends a supervised gateway before its files go.
  for (const item of plan.remove.filter((entry) => entry.kind === "service")) {
    const quiet = { ...ctx, stdout: (text: string) => serviceOutput.push(text) };
    const code = await uninstallService(opts.json ? quiet : ctx, deps.service);
    if (code !== ExitCode.ok)
      throw new CliError("removing the gateway service failed; nothing else was removed");
    removed.push(item);
  }
  const still = touchesState ? liveGateway(stateDir) : undefined;
  if (still !== undefined) {
    throw new CliError(
      `a gateway (pid ${still}) is still running on ${stateDir}; stop it (pincer gateway stop) and run uninstall again`,
    );
  }
  for (const item of plan.remove.filter((entry) => entry.kind !== "service")) {
    if (item.symlink) rmSync(item.path, { force: true });
    else removeTreeExcept(item.path, item.keep);
    removed.push(item);
    if (!opts.json) printLine(ctx, `removed ${describe(item)}`);
  }
  if (opts.json) printJson(ctx, { dryRun: false, ...plan, removed });
  else {
    for (const item of plan.kept) printLine(ctx, `kept ${item.path} (${item.reason})`);
    for (const item of plan.refused) printLine(ctx, `refused ${item.path} (${item.reason})`);
    if (removed.length === 0) printLine(ctx, "nothing removed");
  }
  return plan.refused.length > 0 ? ExitCode.failure : ExitCode.ok;
}

/** Runs `pincer uninstall`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof uninstallOptions>,
): Promise<number> {
  return uninstallAllWith(ctx, opts, {
    service: defaultServiceDeps(ctx),
    confirm: confirmOnTerminal,
  });
}
