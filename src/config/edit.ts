// editConfigFile: apply set/delete/append edits to the main config file's TEXT (comments and layout
// kept), check the result, keep a `.bak` of the old file, then write atomically with mode 0600 — under
// the config write lock, compared against the file's hash (write-lock.ts), so concurrent writers never
// lose each other's edits. A redaction marker in an edit keeps the stored secret; values nested deeper
// than the config depth limit are refused.
import { homedir } from "node:os";
import { resolve } from "node:path";
import { type ConfigIssue, type ConfigValidationResult, hasErrors } from "./config-issue.js";
import {
  formatConfigPath,
  getConfigValue,
  type PathSegment,
  parseConfigPath,
} from "./config-path.js";
import { resolveConfigSource } from "./config-source.js";
import { MAX_CONFIG_DEPTH, tooDeepMessage, valueTooDeep } from "./depth-limit.js";
import { substituteEnvVars } from "./env-substitution.js";
import { findJson5Node, scanJson5 } from "./json5-locate.js";
import { parseJson5Text } from "./json5-parse.js";
import { appendInText, deleteInText, type SpliceResult, setInText } from "./json5-splice.js";
import type { OriginTree } from "./located-value.js";
import { isRedactionMarker, restoreRedacted, unresolvedMarkerMessage } from "./redaction.js";
import { type CommitResult, type ConfigSnapshot, commitConfigWrite } from "./write-lock.js";

/** One change to the config file. Paths use OpenClaw notation (`agents.list[0].model`). */
export type ConfigEdit =
  | { op: "set"; path: string; value: unknown }
  | { op: "delete"; path: string }
  | { op: "append"; path: string; value: unknown };

/** Edits computed from the config as it is at write time (the resolved value): re-run if another writer
 * changed the file meanwhile, so a decision like "add `main` only if there is no roster" stays right. */
export type EditsFromConfig = (current: unknown) => ConfigEdit[] | { error: string };

/** Inputs for {@link editConfigFile}. */
export interface EditConfigParams {
  configPath: string;
  edits: ConfigEdit[] | EditsFromConfig;
  /** Checks the whole resulting config (after $include and ${VAR}); errors refuse the write. */
  validate: (nextConfigValue: unknown) => ConfigValidationResult;
  /** Environment for `${VAR}` resolution; default process.env. */
  env?: Record<string, string | undefined>;
  /** Home for `~` in include paths; default `env.HOME` or the OS home. */
  home?: string;
  /** Refuse unless the file still has this hash (`""`: must not exist); default: re-apply on change. */
  baseHash?: string;
  /** How long to wait for another writer's lock (default 15 s). */
  lockTimeoutMs?: number;
}

/** Outcome: written (with the backup path when a previous file existed and the new hash), or refused
 * with reasons (`stale`: the file is not at `baseHash`; `locked`: another writer held the lock too long). */
export type EditConfigResult =
  | { ok: true; backupPath?: string; hash: string }
  | { ok: false; issues: ConfigIssue[]; reason: "invalid" | "stale" | "locked" };

/** Text of a freshly created config file before edits are applied. */
const EMPTY_CONFIG = "{}\n";

function originFile(origin: OriginTree | undefined, segments: PathSegment[]): string | undefined {
  let node = origin;
  for (const segment of segments) node = node?.children?.get(segment);
  return node?.at.file;
}

/** Explains edits that would need to change a value that lives only in an included file. */
function includeConflict(params: {
  text: string;
  file: string;
  home: string;
  edit: ConfigEdit;
  segments: PathSegment[];
}): string | undefined {
  const { text, file, home, edit, segments } = params;
  const root = scanJson5(text);
  const matched = root ? findJson5Node(root, segments).matched : 0;
  if (matched === segments.length) return undefined;
  const source = resolveConfigSource({ file, home, text });
  const fromInclude = (prefix: PathSegment[]): string | undefined => {
    if (!getConfigValue(source.value, prefix).ok) return undefined;
    const from = originFile(source.origin, prefix);
    return from && from !== file ? from : undefined;
  };
  const path = formatConfigPath(segments);
  if (edit.op === "delete") {
    const from = fromInclude(segments);
    return from ? `${path} comes from the included file ${from}; delete it there` : undefined;
  }
  if (edit.op === "append") {
    const from = fromInclude(segments);
    if (from)
      return `${path} is an array from the included file ${from}; append to it there, or set the whole array`;
  }
  for (let k = matched + 1; k < segments.length; k++) {
    if (typeof segments[k] !== "number") continue;
    const prefix = segments.slice(0, k);
    const from = fromInclude(prefix);
    if (from)
      return `${formatConfigPath(prefix)} is an array from the included file ${from}; edit it there, or set the whole array`;
  }
  return undefined;
}

function applyEdit(params: {
  text: string;
  edit: ConfigEdit;
  segments: PathSegment[];
}): SpliceResult {
  const { text, edit, segments } = params;
  if (edit.op === "delete") return deleteInText({ text, segments });
  if (edit.value === undefined) return { ok: false, error: "the new value is undefined" };
  const change = { text, segments, value: edit.value };
  return edit.op === "set" ? setInText(change) : appendInText(change);
}

/** Issue keys present before the edit, so only problems the edit introduces block it. */
function issueKeys(issues: readonly ConfigIssue[]): Set<string> {
  return new Set(
    issues
      .filter((issue) => issue.severity === "error")
      .map((issue) => `${issue.path}\u0000${issue.message}`),
  );
}

function resolveText(params: {
  file: string;
  home: string;
  text: string;
  env: Record<string, string | undefined>;
}) {
  const source = resolveConfigSource({ file: params.file, home: params.home, text: params.text });
  const substituted = substituteEnvVars({
    value: source.value,
    env: params.env,
    origin: source.origin,
  });
  return { value: substituted.value, issues: [...source.issues, ...substituted.issues] };
}

/** Inputs of {@link planConfigEdits}: the current main-file text and what to do to it. */
export interface PlanEditsParams {
  file: string;
  text: string;
  edits: EditConfigParams["edits"];
  validate: EditConfigParams["validate"];
  env: Record<string, string | undefined>;
  home: string;
}

/** Puts stored secrets back where an edit carries a redaction marker; drops edits that only say "keep". */
function restoreMarkers(
  params: PlanEditsParams & { edits: ConfigEdit[] },
): { edits: ConfigEdit[] } | { issue: ConfigIssue } {
  const out: ConfigEdit[] = [];
  let stored: unknown;
  for (const edit of params.edits) {
    if (edit.op === "delete") {
      out.push(edit);
      continue;
    }
    const parsedPath = parseConfigPath(edit.path);
    if (!parsedPath.ok) {
      out.push(edit);
      continue;
    }
    stored ??= resolveConfigSource({
      file: params.file,
      home: params.home,
      text: params.text,
    }).value;
    // An appended item is new: nothing is stored at its path, so a marker in it is refused.
    const at =
      edit.op === "append"
        ? [...parsedPath.segments, Number.MAX_SAFE_INTEGER]
        : parsedPath.segments;
    const restored = restoreRedacted({ value: edit.value, stored, at });
    const [missing] = restored.missing;
    if (missing !== undefined)
      return { issue: { severity: "error", path: missing, message: unresolvedMarkerMessage() } };
    if (isRedactionMarker(edit.value)) continue;
    out.push({ ...edit, value: restored.value });
  }
  return { edits: out };
}

/** Computes the new main-file text for `edits` (spliced, then checked as a whole); nothing is written. */
export function planConfigEdits(
  params: PlanEditsParams,
): { ok: true; text: string } | { ok: false; issues: ConfigIssue[] } {
  const { file, home, env } = params;
  const parsed = parseJson5Text(file, params.text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  const current = resolveText({ file, home, text: params.text, env });
  const edits = typeof params.edits === "function" ? params.edits(current.value) : params.edits;
  if (!Array.isArray(edits)) return refusedIssues("", edits.error);
  for (const edit of edits) {
    if (edit.op === "delete") continue;
    const segments = parseConfigPath(edit.path);
    const room = MAX_CONFIG_DEPTH - (segments.ok ? segments.segments.length : 0);
    if (valueTooDeep(edit.value, room)) return refusedIssues(edit.path, tooDeepMessage());
  }
  const restored = edits.some((edit) => edit.op !== "delete" && hasMarker(edit.value))
    ? restoreMarkers({ ...params, edits })
    : { edits };
  if ("issue" in restored) return { ok: false, issues: [restored.issue] };
  const before = issueKeys(current.issues);

  let text = params.text;
  for (const edit of restored.edits) {
    const parsedPath = parseConfigPath(edit.path);
    if (!parsedPath.ok) return refusedIssues(edit.path, parsedPath.error);
    const segments = parsedPath.segments;
    const path = formatConfigPath(segments);
    const conflict = includeConflict({ text, file, home, edit, segments });
    if (conflict) return refusedIssues(path, conflict);
    const result = applyEdit({ text, edit, segments });
    if (!result.ok) return refusedIssues(path, result.error);
    text = result.text;
  }

  const next = resolveText({ file, home, text, env });
  const introduced = next.issues.filter(
    (issue) => issue.severity === "warning" || !before.has(`${issue.path}\u0000${issue.message}`),
  );
  if (hasErrors(introduced)) return { ok: false, issues: introduced };
  const verdict = params.validate(next.value);
  if (!verdict.valid || hasErrors(verdict.issues)) return { ok: false, issues: verdict.issues };
  return { ok: true, text };
}

function refusedIssues(path: string, message: string): { ok: false; issues: ConfigIssue[] } {
  return { ok: false, issues: [{ severity: "error", path, message }] };
}

/** True when a value holds a redaction marker anywhere (iterative; values are depth-checked first). */
function hasMarker(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (isRedactionMarker(item)) return true;
    if (item && typeof item === "object") stack.push(...Object.values(item));
  }
  return false;
}

/** The main-file text an edit starts from (a missing file starts as `{}`). */
export function editBaseText(snapshot: ConfigSnapshot): string {
  return snapshot.exists ? snapshot.text : EMPTY_CONFIG;
}

/** Maps a write outcome to an edit outcome (stale/locked become one root issue). */
export function toEditResult(result: CommitResult): EditConfigResult {
  if (result.ok) {
    return result.backupPath
      ? { ok: true, backupPath: result.backupPath, hash: result.hash }
      : { ok: true, hash: result.hash };
  }
  if (result.reason === "invalid") return { ok: false, issues: result.issues, reason: "invalid" };
  return {
    ok: false,
    reason: result.reason,
    issues: [{ severity: "error", path: "", message: result.message }],
  };
}

/** Applies `edits` to the config file by text splicing, validates the result, backs up, writes
 * atomically — under the config write lock, re-applied if another writer changed the file meanwhile. */
export function editConfigFile(params: EditConfigParams): EditConfigResult {
  const file = resolve(params.configPath);
  const env = params.env ?? process.env;
  const home = params.home ?? (env.HOME?.trim() || homedir());
  try {
    const result = commitConfigWrite({
      configPath: file,
      compute: (snapshot) =>
        planConfigEdits({
          file,
          text: editBaseText(snapshot),
          edits: params.edits,
          validate: params.validate,
          env,
          home,
        }),
      ...(params.baseHash !== undefined ? { baseHash: params.baseHash } : {}),
      ...(params.lockTimeoutMs !== undefined ? { lockTimeoutMs: params.lockTimeoutMs } : {}),
    });
    return toEditResult(result);
  } catch (err) {
    const message = `cannot write the config file: ${err instanceof Error ? err.message : String(err)}`;
    return {
      ok: false,
      reason: "invalid",
      issues: [{ severity: "error", path: "", message, file }],
    };
  }
}
