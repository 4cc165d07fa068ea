// Which local files a reply (or the gateway's `send`) may attach. A local media reference (absolute,
// relative, `~/`, `file://`) is resolved against the agent workspace, symlinks followed (realpath),
// and allowed only when the real file lies inside an allowed root: the agent's workspace, plus the
// channel's `mediaLocalRoots` unless `tools.fs.workspaceOnly`. The state dir is refused even when a
// root contains it; only an allowed root strictly inside the state dir is carved out of it, and inside
// such a root the credential locations (agentDirs, sessions, gateway.token, credentials/, devices/,
// the config file, channel token files) stay refused. Remote http(s) URLs pass untouched.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expandHome, type StatePaths } from "../../config/paths.js";
import { lookupAgent, resolveConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { resolveToolSettings } from "../../runtime/tools/config.js";
import type { OutboundMedia } from "../types.js";

/** The resolved roots one agent's outbound media is checked against (all absolute). */
export interface MediaPolicy {
  /** Where relative references resolve: the agent workspace. */
  baseDir: string;
  /** `~` expansion. */
  home: string;
  /** Directories media may come from: the workspace, plus `mediaLocalRoots` unless workspace-only. */
  allowedRoots: string[];
  /** State dirs: refused, except inside an allowed root that lies strictly below one of them. */
  protectedRoots: string[];
  /** Files and directories always refused, wherever they are (credentials, config, transcripts). */
  secretPaths: string[];
}

/** Inputs of {@link resolveMediaPolicy}. */
export interface ResolveMediaPolicyParams {
  cfg: OpenClawConfig;
  paths: StatePaths;
  /** The agent whose workspace the media may come from. */
  agentId: string;
  /** The channel and account delivering: their `mediaLocalRoots` count. */
  channel?: string;
  accountId?: string;
}

/** Direct children of a state dir that hold secrets or other people's data. */
const STATE_SECRETS = [
  "openclaw.json",
  "gateway.token",
  "credentials",
  "devices",
  "identity",
  ".env",
];
/** Keys of a channel (or account) section that name a credential file or directory. */
const CHANNEL_SECRET_KEYS = ["tokenFile", "authDir", "dbPath", "serviceAccountFile"];

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** `mediaLocalRoots` of the account (when it sets one) or else of the channel. */
function configuredRoots(params: ResolveMediaPolicyParams): string[] {
  if (!params.channel) return [];
  const section = record(record(params.cfg.channels)?.[params.channel]);
  const account = params.accountId
    ? record(record(section?.accounts)?.[params.accountId])
    : undefined;
  if (account && Array.isArray(account.mediaLocalRoots)) return strings(account.mediaLocalRoots);
  return strings(section?.mediaLocalRoots);
}

/** Credential files named anywhere in `channels.*` (and their accounts) and `gateway.tls`. */
function configuredSecrets(cfg: OpenClawConfig): string[] {
  const out: string[] = [];
  const collect = (section: Record<string, unknown> | undefined) => {
    for (const key of CHANNEL_SECRET_KEYS) {
      const value = section?.[key];
      if (typeof value === "string" && value.trim() !== "") out.push(value);
    }
  };
  for (const section of Object.values(record(cfg.channels) ?? {})) {
    collect(record(section));
    for (const account of Object.values(record(record(section)?.accounts) ?? {}))
      collect(record(account));
  }
  const tls = record(record(cfg.gateway)?.tls);
  for (const key of ["keyPath", "certPath"]) {
    if (typeof tls?.[key] === "string") out.push(tls[key] as string);
  }
  return out;
}

/** The media policy of `agentId` on a channel account, from the config and the state paths. */
export function resolveMediaPolicy(params: ResolveMediaPolicyParams): MediaPolicy {
  const { cfg, paths } = params;
  const home = paths.home;
  const resolved = resolveConfig({ config: cfg, paths });
  const workspace = lookupAgent(resolved, params.agentId).workspace;
  const workspaceOnly = resolveToolSettings(resolved, params.agentId).fsWorkspaceOnly;
  const extra = workspaceOnly
    ? []
    : configuredRoots(params)
        .map((root) => root.trim())
        .filter((root) => root !== "")
        .map((root) => expandHome(root, home))
        .filter((root) => isAbsolute(root));
  const protectedRoots = [...new Set([resolve(paths.stateDir), resolve(paths.workspaceBase)])];
  const agents = resolved.agents;
  const secretPaths = [
    paths.configPath,
    `${paths.configPath}.bak`,
    ...protectedRoots.flatMap((root) => STATE_SECRETS.map((name) => join(root, name))),
    ...agents.flatMap((agent) => [agent.agentDir, agent.sessionsDir]),
    ...configuredSecrets(cfg).map((path) => expandHome(path, home)),
  ].map((path) => resolve(path));
  return {
    baseDir: resolve(workspace),
    home,
    allowedRoots: [resolve(workspace), ...extra],
    protectedRoots,
    secretPaths: [...new Set(secretPaths)],
  };
}

/** The verdict on one media reference: what to send, or why not. */
export type MediaCheck =
  | { ok: true; media: OutboundMedia }
  | { ok: false; ref: string; reason: string };

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Real path of a root; a root that does not exist (yet) is compared as written. */
async function realRoot(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // Missing root: nothing real can be inside it, so its written form is as good as any.
    return path;
  }
}

/** `<state>/agents/<id>/agent|sessions/…`: every agent's credentials and transcripts, listed or not. */
function isAgentStateDir(root: string, candidate: string): boolean {
  const parts = relative(root, candidate).split(sep);
  return parts[0] === "agents" && (parts[2] === "agent" || parts[2] === "sessions");
}

const refuse = (ref: string, reason: string): MediaCheck => ({ ok: false, ref, reason });

/** The local path a reference names, or why it names none (a URL with a scheme we do not read). */
function localPath(policy: MediaPolicy, ref: string): string | { reason: string } {
  if (/^file:/i.test(ref)) {
    try {
      const url = new URL(ref);
      if (url.hostname !== "" && url.hostname !== "localhost")
        return { reason: `file URL host ${JSON.stringify(url.hostname)} is not local` };
      return fileURLToPath(url);
    } catch (err) {
      return { reason: `unusable file URL (${(err as Error).message})` };
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return { reason: "only http(s) URLs and local files" };
  if (ref.startsWith("~") && ref !== "~" && !ref.startsWith("~/"))
    return { reason: "~user paths are not supported" };
  const expanded = ref === "~" || ref.startsWith("~/") ? join(policy.home, ref.slice(1)) : ref;
  return resolve(policy.baseDir, expanded);
}

/** Checks one media reference against the policy (the file is stat'ed; nothing is read). */
export async function checkMediaRef(policy: MediaPolicy, rawRef: string): Promise<MediaCheck> {
  const ref = rawRef.trim();
  if (ref === "") return refuse(rawRef, "empty media reference");
  if (/^https?:\/\//i.test(ref)) return { ok: true, media: { url: ref } };
  const path = localPath(policy, ref);
  if (typeof path !== "string") return refuse(ref, path.reason);
  let real: string;
  try {
    real = await realpath(path);
    if (!(await stat(real)).isFile()) return refuse(ref, "not a regular file");
  } catch (err) {
    return refuse(ref, `not readable (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const [allowed, guarded, secrets] = await Promise.all([
    Promise.all(policy.allowedRoots.map(realRoot)),
    Promise.all(policy.protectedRoots.map(realRoot)),
    Promise.all(policy.secretPaths.map(realRoot)),
  ]);
  if (secrets.some((secret) => isInside(secret, real)))
    return refuse(ref, "a credential or state file");
  const roots = allowed.filter((root) => isInside(root, real));
  if (roots.length === 0) return refuse(ref, "outside the agent workspace and media roots");
  for (const state of guarded.filter((dir) => isInside(dir, real))) {
    if (isAgentStateDir(state, real)) return refuse(ref, "an agent's credentials or sessions");
    // Only a root strictly inside the state dir opens part of it (the default workspace does).
    const carved = roots.some((root) => root !== state && isInside(state, root));
    if (!carved) return refuse(ref, "inside the state dir");
  }
  return { ok: true, media: { path: real } };
}
