// Which agent an `agents bind|unbind|delete` means: an id of the config's roster (normalized as
// routing normalizes it), or the default agent when `--agent` is omitted (as OpenClaw).
import { listAgentEntries, resolveDefaultAgentId } from "../../agents/roster.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/ids.js";
import { CliError } from "../command-context.js";

/** The normalized id of `raw` (default: the default agent); an id not in the roster is an error
 * listing the ones that are (with no roster only the implicit `main` exists). */
export function rosterAgentId(cfg: OpenClawConfig, raw: string | undefined): string {
  const id = raw?.trim() ? normalizeAgentId(raw) : resolveDefaultAgentId(cfg);
  const ids = listAgentEntries(cfg).map((entry) => normalizeAgentId(entry.id));
  const known = ids.length > 0 ? ids : ["main"];
  if (!known.includes(id))
    throw new CliError(`unknown agent "${raw ?? id}" (agents: ${known.join(", ")})`);
  return id;
}
