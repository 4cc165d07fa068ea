// The write side of the gateway's config methods: config.set / config.apply (a whole file) and
// config.patch (an RFC 7386 merge patch applied as text edits, comments kept). Every write goes through
// the config write lock with a compare-and-swap on the file's hash (src/config/write-lock.ts), so the
// CLI and the gateway never lose each other's writes. As in OpenClaw, `baseHash` (from config.get) is
// required once the file exists. Redaction markers keep the stored secrets; input nested deeper than
// the config depth limit is refused before it is parsed.

import {
  type CommitResult,
  type ConfigEdit,
  type ConfigIssue,
  commitConfigWriteAsync,
  editBaseText,
  findTooDeep,
  formatConfigIssues,
  formatConfigPath,
  loadConfig,
  type PathSegment,
  planConfigEdits,
  readConfigSnapshot,
  redactIssues,
  resolveConfigSource,
  restoreSecretsInText,
  tooDeepMessage,
} from "../../config/index.js";
import { parseJson5 } from "../../lib/json5.js";
import { DetailCodes, ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import {
  validateConfigWithModelRefs,
  withModelRefIssues,
} from "../../runtime/models/model-ref-rules.js";
import type { GatewayCore } from "../core.js";
import { fail, type MethodResult } from "../methods/method.js";

/** A config write request: the raw text and the hash it was based on. */
export interface ConfigWriteParams {
  raw: string;
  baseHash?: string;
}

/** A write that went through: the new hash and the backup of the previous file. */
export interface ConfigWritten {
  hash: string;
  backupPath?: string;
}

/** What a write did: wrote the file, changed nothing (an empty patch), or was refused (the answer). */
export type ConfigWriteOutcome =
  | { kind: "written"; written: ConfigWritten }
  | { kind: "unchanged" }
  | { kind: "refused"; answer: MethodResult };

const refusedWith = (answer: MethodResult): ConfigWriteOutcome => ({ kind: "refused", answer });

/** Refuses with the file's issues (redacted, each with file:line:col when known). */
export function invalidConfig(issues: readonly ConfigIssue[]): MethodResult {
  const shown = redactIssues(issues.filter((issue) => issue.severity === "error"));
  const summary = formatConfigIssues({ issues: shown }).split("\n").slice(0, -1).join("; ");
  return fail(
    gatewayError(ErrorCodes.INVALID_REQUEST, `invalid config: ${summary}`, {
      details: { code: DetailCodes.CONFIG_INVALID, issues: shown },
    }),
  );
}

function tooDeep(): MethodResult {
  return fail(
    gatewayError(ErrorCodes.INVALID_REQUEST, `invalid config: raw is ${tooDeepMessage()}`, {
      details: { code: DetailCodes.CONFIG_TOO_DEEP },
    }),
  );
}

/** OpenClaw's rule: once a config file exists, a write must say which version it was based on. */
function missingBaseHash(
  core: GatewayCore,
  baseHash: string | undefined,
): MethodResult | undefined {
  if (baseHash !== undefined || !readConfigSnapshot(core.live.loaded.path).exists) return undefined;
  return fail(
    gatewayError(
      ErrorCodes.INVALID_REQUEST,
      "config base hash required; run config.get and retry with its hash as baseHash",
      { details: { code: DetailCodes.CONFIG_BASE_HASH_REQUIRED } },
    ),
  );
}

function commitFailure(result: Exclude<CommitResult, { ok: true }>): MethodResult {
  if (result.reason === "invalid") return invalidConfig(result.issues);
  if (result.reason === "stale") {
    return fail(
      gatewayError(
        ErrorCodes.INVALID_REQUEST,
        "config changed since it was read; run config.get and retry",
        { details: { code: DetailCodes.CONFIG_BASE_HASH_MISMATCH } },
      ),
    );
  }
  return fail(
    gatewayError(ErrorCodes.UNAVAILABLE, result.message, {
      details: { code: DetailCodes.CONFIG_LOCKED },
      retryable: true,
      retryAfterMs: 1000,
    }),
  );
}

async function commit(
  core: GatewayCore,
  params: {
    baseHash: string | undefined;
    compute: Parameters<typeof commitConfigWriteAsync>[0]["compute"];
  },
): Promise<ConfigWriteOutcome> {
  const result = await commitConfigWriteAsync({
    configPath: core.live.loaded.path,
    // No file yet: the write expects none (hash ""), so a file created meanwhile is not overwritten.
    baseHash: params.baseHash ?? "",
    compute: params.compute,
  });
  if (!result.ok) return refusedWith(commitFailure(result));
  const written = result.backupPath
    ? { hash: result.hash, backupPath: result.backupPath }
    : { hash: result.hash };
  return { kind: "written", written };
}

/** Writes `raw` as the whole config file (config.set / config.apply), validated first. */
export async function writeWholeConfig(
  core: GatewayCore,
  params: ConfigWriteParams,
): Promise<ConfigWriteOutcome> {
  if (findTooDeep(params.raw) !== undefined) return refusedWith(tooDeep());
  const refused = missingBaseHash(core, params.baseHash);
  if (refused) return refusedWith(refused);
  const path = core.live.loaded.path;
  const home = core.live.loaded.paths.home;
  return commit(core, {
    baseHash: params.baseHash,
    compute: (snapshot) => {
      const restored = restoreSecretsInText({
        file: path,
        text: params.raw,
        currentText: snapshot.exists ? snapshot.text : undefined,
        home,
      });
      if (!restored.ok) return restored;
      const check = withModelRefIssues(
        loadConfig({ ...core.live.loadOptions, configPath: path, text: restored.text }),
        core.env,
      );
      const errors = check.issues.filter((issue) => issue.severity === "error");
      return errors.length > 0 ? { ok: false, issues: errors } : { ok: true, text: restored.text };
    },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** RFC 7386 merge patch → edits against the current value (objects merge, null deletes). */
function patchEdits(
  patch: Record<string, unknown>,
  current: unknown,
  at: PathSegment[],
): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const segments = [...at, key];
    const path = formatConfigPath(segments);
    const before = isObject(current) ? current[key] : undefined;
    if (value === null) {
      if (before !== undefined) edits.push({ op: "delete", path });
    } else if (isObject(value) && isObject(before)) {
      edits.push(...patchEdits(value, before, segments));
    } else {
      edits.push({ op: "set", path, value });
    }
  }
  return edits;
}

/** Applies `raw` (a JSON5 merge patch) to the config file as text edits (config.patch). */
export async function patchConfig(
  core: GatewayCore,
  params: ConfigWriteParams,
): Promise<ConfigWriteOutcome> {
  if (findTooDeep(params.raw) !== undefined) return refusedWith(tooDeep());
  let patch: unknown;
  try {
    patch = parseJson5(params.raw);
  } catch (err) {
    // json5's SyntaxError carries where: the editor marks that line of the patch.
    const { lineNumber, columnNumber } = err as { lineNumber?: number; columnNumber?: number };
    const at =
      typeof lineNumber === "number" ? { line: lineNumber, column: columnNumber ?? 1 } : {};
    const message = `raw is not JSON5: ${(err as Error).message}`;
    return refusedWith(invalidConfig([{ severity: "error", path: "", message, ...at }]));
  }
  if (!isObject(patch)) {
    const message = "a merge patch must be an object";
    return refusedWith(invalidConfig([{ severity: "error", path: "", message }]));
  }
  const refused = missingBaseHash(core, params.baseHash);
  if (refused) return refusedWith(refused);
  const { path, paths } = core.live.loaded;
  let unchanged = false;
  const written = await commit(core, {
    baseHash: params.baseHash,
    compute: (snapshot) => {
      const text = editBaseText(snapshot);
      const current = resolveConfigSource({ file: path, home: paths.home, text }).value;
      const edits = patchEdits(patch, current, []);
      unchanged = edits.length === 0;
      // Nothing to write: stop here (the empty refusal is replaced by "unchanged" below).
      if (unchanged) return { ok: false, issues: [] };
      return planConfigEdits({
        file: path,
        text,
        edits,
        validate: (next) => validateConfigWithModelRefs({ value: next, paths, env: core.env }),
        env: core.env,
        home: paths.home,
      });
    },
  });
  return unchanged ? { kind: "unchanged" } : written;
}
