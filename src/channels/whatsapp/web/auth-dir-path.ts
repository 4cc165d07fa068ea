// Where a WhatsApp Web account's auth dir is, without loading Baileys: config validation, `channels
// login` and the status of an account that is not linked need only the path and the creds file name.
import { homedir } from "node:os";
import { join } from "node:path";
import { expandHome } from "../../../config/paths.js";
import type { ChannelAccountConfig } from "../../index.js";

/** The file holding an account's credentials (its presence with `me` set means "linked"). */
export const WHATSAPP_CREDS_FILE = "creds.json";

/** Inputs for {@link resolveWhatsAppAuthDir}. */
export interface ResolveAuthDirParams {
  config: ChannelAccountConfig;
  stateDir: string;
  accountId: string;
  env: Record<string, string | undefined>;
}

/** The account's auth dir: `authDir` (`~` expanded) when set, else
 *  `<stateDir>/credentials/whatsapp/<accountId>`; an error for an account id that is not a plain
 *  name (it becomes a path segment). */
export function resolveWhatsAppAuthDir(
  params: ResolveAuthDirParams,
): { ok: true; authDir: string } | { ok: false; error: string } {
  const raw = typeof params.config.authDir === "string" ? params.config.authDir.trim() : "";
  if (raw) {
    const home = params.env.HOME?.trim() || homedir();
    return { ok: true, authDir: expandHome(raw, home) };
  }
  const id = params.accountId;
  if (!id || id === "." || id === ".." || /[/\\\0]/.test(id)) {
    return { ok: false, error: `account id ${JSON.stringify(id)} cannot name an auth dir` };
  }
  return { ok: true, authDir: join(params.stateDir, "credentials", "whatsapp", id) };
}
