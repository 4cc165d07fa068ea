// config.get (secrets redacted) / config.schema / config.set (whole file) / config.apply (whole
// file, applied live) / config.patch (JSON5 merge patch, comments kept). Writes are validated
// first, keep the previous file as `.bak`, are written atomically and are applied at once.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import JSON5 from "json5";
import {
  type ConfigEdit,
  editConfigFile,
  formatConfigPath,
  loadConfig,
  type PathSegment,
  validateConfig,
} from "../../config/index.js";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { DetailCodes, ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { fileHash } from "../config-live.js";
import { fail, type GatewayCore, type MethodCall, type MethodHandler, ok } from "../context.js";
import { redactSecrets } from "../redact.js";

type RawParams = { raw: string; baseHash?: string };

function invalidConfig(issues: Array<{ path: string; message: string }>) {
  const summary = issues.map((issue) => `${issue.path || "<root>"}: ${issue.message}`).join("; ");
  return fail(
    gatewayError(ErrorCodes.INVALID_REQUEST, `invalid config: ${summary}`, {
      details: { code: DetailCodes.CONFIG_INVALID, issues },
    }),
  );
}

function staleHash(core: GatewayCore, baseHash: string | undefined) {
  if (baseHash === undefined || baseHash === fileHash(core.live.loaded.path)) return undefined;
  return fail(
    gatewayError(
      ErrorCodes.INVALID_REQUEST,
      "config changed since it was read; run config.get and retry",
      {
        details: { code: DetailCodes.CONFIG_BASE_HASH_MISMATCH },
      },
    ),
  );
}

/** Validates `raw` as the whole config file (includes resolve next to it), then writes it. */
function writeWholeFile(core: GatewayCore, raw: string) {
  const path = core.live.loaded.path;
  const pending = join(dirname(path), `.${basename(path)}.pending-${process.pid}`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(pending, raw, { mode: 0o600 });
  try {
    const check = loadConfig({ ...core.live.loadOptions, configPath: pending });
    const errors = check.issues.filter((issue) => issue.severity === "error");
    if (errors.length > 0) return invalidConfig(errors);
    const backupPath = existsSync(path) ? `${path}.bak` : undefined;
    if (backupPath) copyFileSync(path, backupPath);
    writeFileAtomic(path, raw, { mode: 0o600 });
    return { backupPath };
  } finally {
    rmSync(pending, { force: true });
  }
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

function applied(core: GatewayCore, reason: string, backupPath: string | undefined) {
  const reload = core.live.reload(reason);
  const restartKeys = reload.ok ? reload.restartNeeded : [];
  return ok({
    ok: true,
    path: core.live.loaded.path,
    hash: fileHash(core.live.loaded.path),
    ...(backupPath ? { backupPath } : {}),
    config: redactSecrets(core.live.config),
    restart: { needed: restartKeys.length > 0, keys: restartKeys },
  });
}

function setWhole(reason: string): MethodHandler {
  return (call: MethodCall<RawParams>) => {
    const stale = staleHash(call.core, call.params.baseHash);
    if (stale) return stale;
    const written = writeWholeFile(call.core, call.params.raw);
    if ("ok" in written) return written;
    call.core.logger.info(`config written by ${reason}`, { connId: call.client.connId });
    return applied(call.core, reason, written.backupPath);
  };
}

function patch(call: MethodCall<RawParams>) {
  const { core, params } = call;
  const stale = staleHash(core, params.baseHash);
  if (stale) return stale;
  let value: unknown;
  try {
    value = JSON5.parse(params.raw);
  } catch (err) {
    return invalidConfig([{ path: "", message: `raw is not JSON5: ${(err as Error).message}` }]);
  }
  if (!isObject(value))
    return invalidConfig([{ path: "", message: "a merge patch must be an object" }]);
  const edits = patchEdits(value, core.live.config, []);
  if (edits.length === 0) return applied(core, "config.patch", undefined);
  const paths = core.live.loaded.paths;
  const result = editConfigFile({
    configPath: core.live.loaded.path,
    edits,
    validate: (next) => validateConfig(next, { paths }),
    env: core.env,
    home: paths.home,
  });
  if (!result.ok) return invalidConfig(result.issues.filter((issue) => issue.severity === "error"));
  return applied(core, "config.patch", result.backupPath);
}

/** The config method group (all operator.admin). */
export const configMethods: Record<string, MethodHandler> = {
  "config.get": (call) => {
    const loaded = call.core.live.loaded;
    return ok({
      path: loaded.path,
      exists: loaded.exists,
      valid: loaded.valid,
      hash: fileHash(loaded.path),
      config: redactSecrets(loaded.config),
      issues: loaded.issues.map((issue) => ({
        severity: issue.severity,
        path: issue.path,
        message: issue.message,
      })),
    });
  },
  "config.schema": async (call) => {
    const { CONFIG_JSON_SCHEMA } = await import("../../protocol/config/schema.generated.js");
    return ok({ schema: CONFIG_JSON_SCHEMA, uiHints: {}, version: call.core.version });
  },
  "config.set": setWhole("config.set"),
  "config.apply": setWhole("config.apply"),
  "config.patch": patch,
};
