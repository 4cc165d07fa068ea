// Legacy credential files brought into auth-profiles.json on first use (OpenClaw's rules):
// - `<agentDir>/auth.json` (the old per-agent store, keyed by provider: `{ anthropic: { type:
//   "oauth", access, refresh, expires }, openai: { type: "api_key", key } }`) is migrated and
//   renamed to `auth.json.migrated` (kept as the backup);
// - `<stateDir>/credentials/oauth.json` (OAuth tokens keyed by provider) is imported once into the
//   default agent; `oauth.json.imported` records that, and the file itself is left alone.
// Profiles become `<provider>:default`; a profile already in the store is never overwritten.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { readTextIfExists } from "../../lib/read-if-exists.js";
import {
  type AuthCredential,
  asCredential,
  readAuthStore,
  type StoredProfile,
  writeAuthStore,
} from "./auth-store.js";
import { withAuthStoreLock } from "./refresh-lock.js";
import { normalizeProviderId } from "./refs.js";

/** Name of the legacy per-agent file. */
export const LEGACY_AUTH_FILE = "auth.json";
/** Suffix of the legacy per-agent file once migrated (the backup). */
export const MIGRATED_SUFFIX = ".migrated";
/** Suffix of the marker written next to credentials/oauth.json once imported. */
export const IMPORTED_SUFFIX = ".imported";

/** What {@link importLegacyAuth} did, one line per file, for the user to see. */
export interface LegacyImportReport {
  /** e.g. "migrated …/auth.json into …/auth-profiles.json: anthropic:default (kept as …)". */
  notices: string[];
  /** Files that exist but could not be used (left untouched). */
  errors: string[];
}

/** Inputs of {@link importLegacyAuth}. */
export interface ImportLegacyAuthInput {
  agentDir: string;
  /** The state dir of `credentials/oauth.json`; pass it only for the default agent. */
  stateDir?: string;
  now: number;
  /** Written into the credential lock. */
  pid: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One legacy entry as a credential: typed entries as they are, untyped `{access, refresh}` as OAuth. */
function legacyCredential(provider: string, entry: unknown): AuthCredential | undefined {
  if (!isObject(entry)) return undefined;
  const typed =
    entry.type === undefined && typeof entry.access === "string" ? { type: "oauth" } : {};
  return asCredential({ ...entry, ...typed, provider } as StoredProfile);
}

type LegacyParse =
  | { ok: true; profiles: Array<[string, AuthCredential]>; skipped: string[] }
  | { ok: false; error: string };

function parseLegacy(path: string, text: string): LegacyParse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${path} is not valid JSON: ${(err as Error).message}` };
  }
  if (!isObject(parsed)) return { ok: false, error: `${path} is not an object keyed by provider` };
  const profiles: Array<[string, AuthCredential]> = [];
  const skipped: string[] = [];
  for (const [key, entry] of Object.entries(parsed)) {
    const provider = normalizeProviderId(key);
    const credential = legacyCredential(provider, entry);
    if (credential) profiles.push([`${provider}:default`, credential]);
    else skipped.push(key);
  }
  return { ok: true, profiles, skipped };
}

type Merge = { ok: true; added: string[]; kept: string[] } | { ok: false; error: string };

/** Adds the profiles the store lacks (under the credential lock); the ids added and those already there. */
async function mergeProfiles(
  input: ImportLegacyAuthInput,
  profiles: Array<[string, AuthCredential]>,
): Promise<Merge> {
  const added: string[] = [];
  const kept: string[] = [];
  const { agentDir } = input;
  const lock = { agentDir, pid: input.pid, command: "legacy auth import" };
  const locked = await withAuthStoreLock(lock, async () => {
    const read = readAuthStore(agentDir);
    if (read.error) return read.error;
    const { store } = read;
    for (const [id, credential] of profiles) {
      if (store.profiles[id]) kept.push(id);
      else {
        store.profiles[id] = { ...credential };
        added.push(id);
      }
    }
    writeAuthStore(agentDir, store);
    return undefined;
  });
  const error = locked.ok ? locked.value : locked.error;
  return error ? { ok: false, error } : { ok: true, added, kept };
}

function describeMerge(merge: { added: string[]; kept: string[] }, skipped: string[]): string {
  const parts = [merge.added.length ? merge.added.join(", ") : "no new profile"];
  if (merge.kept.length) parts.push(`already present, not overwritten: ${merge.kept.join(", ")}`);
  if (skipped.length) parts.push(`unusable entries left out: ${skipped.join(", ")}`);
  return parts.join("; ");
}

async function migrateAgentAuthJson(
  input: ImportLegacyAuthInput,
  report: LegacyImportReport,
): Promise<void> {
  const path = join(input.agentDir, LEGACY_AUTH_FILE);
  const text = readTextIfExists(path);
  if (text === undefined) return;
  const parsed = parseLegacy(path, text);
  if (!parsed.ok) {
    report.errors.push(`${parsed.error} (legacy file left as it is)`);
    return;
  }
  const merge = await mergeProfiles(input, parsed.profiles);
  if (!merge.ok) {
    report.errors.push(`${path} not migrated: ${merge.error}`);
    return;
  }
  renameSync(path, `${path}${MIGRATED_SUFFIX}`);
  report.notices.push(
    `migrated ${path} into auth-profiles.json: ${describeMerge(merge, parsed.skipped)} (kept as ${path}${MIGRATED_SUFFIX})`,
  );
}

async function importStateOAuthJson(
  input: ImportLegacyAuthInput & { stateDir: string },
  report: LegacyImportReport,
): Promise<void> {
  const path = join(input.stateDir, "credentials", "oauth.json");
  const marker = `${path}${IMPORTED_SUFFIX}`;
  if (readTextIfExists(marker) !== undefined) return;
  const text = readTextIfExists(path);
  if (text === undefined) return;
  const parsed = parseLegacy(path, text);
  if (!parsed.ok) {
    report.errors.push(`${parsed.error} (not imported)`);
    return;
  }
  const oauthOnly = parsed.profiles.filter(([, credential]) => credential.type === "oauth");
  const merge = await mergeProfiles(input, oauthOnly);
  if (!merge.ok) {
    report.errors.push(`${path} not imported: ${merge.error}`);
    return;
  }
  const { added, kept } = merge;
  const record = {
    importedAt: new Date(input.now).toISOString(),
    agentDir: input.agentDir,
    added,
    kept,
  };
  writeFileAtomic(marker, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  const skipped = [
    ...parsed.skipped,
    ...parsed.profiles.filter(([, c]) => c.type !== "oauth").map(([id]) => id),
  ];
  report.notices.push(
    `imported ${path} into ${join(input.agentDir, "auth-profiles.json")}: ${describeMerge(merge, skipped)} (once; ${marker} records it)`,
  );
}

/** Migrates the agent's legacy auth.json and (default agent) imports credentials/oauth.json once. */
export async function importLegacyAuth(input: ImportLegacyAuthInput): Promise<LegacyImportReport> {
  const report: LegacyImportReport = { notices: [], errors: [] };
  await migrateAgentAuthJson(input, report);
  if (input.stateDir) await importStateOAuthJson({ ...input, stateDir: input.stateDir }, report);
  return report;
}
