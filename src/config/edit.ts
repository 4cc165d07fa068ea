// editConfigFile: apply set/delete/append edits to the main config file's TEXT (comments and layout
// kept), check the result, keep a `.bak` of the old file, then write atomically with mode 0600.
import { chmodSync, copyFileSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { type ConfigIssue, type ConfigValidationResult, hasErrors } from "./config-issue.js";
import {
  formatConfigPath,
  getConfigValue,
  type PathSegment,
  parseConfigPath,
} from "./config-path.js";
import { resolveConfigSource } from "./config-source.js";
import { substituteEnvVars } from "./env-substitution.js";
import { findJson5Node, scanJson5 } from "./json5-locate.js";
import { parseJson5Text } from "./json5-parse.js";
import { appendInText, deleteInText, type SpliceResult, setInText } from "./json5-splice.js";
import type { OriginTree } from "./located-value.js";

/** One change to the config file. Paths use OpenClaw notation (`agents.list[0].model`). */
export type ConfigEdit =
  | { op: "set"; path: string; value: unknown }
  | { op: "delete"; path: string }
  | { op: "append"; path: string; value: unknown };

/** Inputs for {@link editConfigFile}. */
export interface EditConfigParams {
  configPath: string;
  edits: ConfigEdit[];
  /** Checks the whole resulting config (after $include and ${VAR}); errors refuse the write. */
  validate: (nextConfigValue: unknown) => ConfigValidationResult;
  /** Environment for `${VAR}` resolution; default process.env. */
  env?: Record<string, string | undefined>;
  /** Home for `~` in include paths; default `env.HOME` or the OS home. */
  home?: string;
}

/** Outcome: written (with the backup path when a previous file existed), or refused with reasons. */
export type EditConfigResult =
  | { ok: true; backupPath?: string }
  | { ok: false; issues: ConfigIssue[] };

/** Text of a freshly created config file before edits are applied. */
const EMPTY_CONFIG = "{}\n";

function refuse(path: string, message: string): EditConfigResult {
  return { ok: false, issues: [{ severity: "error", path, message }] };
}

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

function readCurrent(file: string): { text: string; exists: boolean } | { issue: ConfigIssue } {
  try {
    return { text: readFileSync(file, "utf8"), exists: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { text: EMPTY_CONFIG, exists: false };
    const message = `cannot read the config file: ${err instanceof Error ? err.message : String(err)}`;
    return { issue: { severity: "error", path: "", message, file } };
  }
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

/** Applies `edits` to the config file by text splicing, validates the result, backs up, writes atomically. */
export function editConfigFile(params: EditConfigParams): EditConfigResult {
  const file = resolve(params.configPath);
  const env = params.env ?? process.env;
  const home = params.home ?? (env.HOME?.trim() || homedir());
  const current = readCurrent(file);
  if ("issue" in current) return { ok: false, issues: [current.issue] };
  const parsed = parseJson5Text(file, current.text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  const before = issueKeys(resolveText({ file, home, text: current.text, env }).issues);

  let text = current.text;
  for (const edit of params.edits) {
    const parsedPath = parseConfigPath(edit.path);
    if (!parsedPath.ok) return refuse(edit.path, parsedPath.error);
    const segments = parsedPath.segments;
    const path = formatConfigPath(segments);
    const conflict = includeConflict({ text, file, home, edit, segments });
    if (conflict) return refuse(path, conflict);
    const result = applyEdit({ text, edit, segments });
    if (!result.ok) return refuse(path, result.error);
    text = result.text;
  }

  const next = resolveText({ file, home, text, env });
  const introduced = next.issues.filter(
    (issue) => issue.severity === "warning" || !before.has(`${issue.path}\u0000${issue.message}`),
  );
  if (hasErrors(introduced)) return { ok: false, issues: introduced };
  const verdict = params.validate(next.value);
  if (!verdict.valid || hasErrors(verdict.issues)) return { ok: false, issues: verdict.issues };

  let backupPath: string | undefined;
  if (current.exists) {
    backupPath = `${file}.bak`;
    copyFileSync(file, backupPath);
    chmodSync(backupPath, 0o600);
  }
  writeFileAtomic(file, text, { mode: 0o600 });
  return backupPath ? { ok: true, backupPath } : { ok: true };
}
