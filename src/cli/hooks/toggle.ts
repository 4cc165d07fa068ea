// Switching a hook on or off in the config through the safe config writer (validated, backed up,
// atomic, under the write lock): `enable` sets `hooks.internal.entries.<name>.enabled: true` and
// `hooks.internal.enabled: true` (a hook only runs with internal hooks on, as OpenClaw's command
// does) and refuses a hook that could not run (missing requirements, invalid); `disable` sets it false.
import { type CliContext, CliError } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { discoverForCli, findHook } from "./discovery.js";

/** Writes the switch of one hook. */
export function toggleHook(
  ctx: CliContext,
  params: { name: string; enabled: boolean; json: boolean },
): number {
  const found = discoverForCli(ctx);
  const hook = findHook(found, params.name);
  if (params.enabled && (hook.status === "blocked" || hook.status === "invalid")) {
    throw new CliError(
      `hook ${hook.name} cannot run (${hook.status}: ${hook.reason}); nothing was changed`,
    );
  }
  const entry = `hooks.internal.entries[${JSON.stringify(hook.name)}].enabled`;
  const edits = [{ op: "set" as const, path: entry, value: params.enabled }];
  if (params.enabled) edits.push({ op: "set", path: "hooks.internal.enabled", value: true });
  return applyConfigEdits(ctx, {
    loaded: found.loaded,
    edits,
    json: params.json,
    summary: `${params.enabled ? "enabled" : "disabled"} hook ${hook.name} (restart the gateway to apply)`,
  });
}
