// config.get (the file as it is now, secrets redacted, with its issues and which config is running) /
// config.schema / config.set (whole file) / config.apply (whole file, applied live) / config.patch
// (JSON5 merge patch, comments kept). Writes (live-config/config-writes.ts) take the config write lock, compare
// `baseHash`, are validated first, keep the previous file as `.bak`, are written atomically and are
// applied at once — unless the reload is refused (auth that would weaken), which the answer says.
import { redactConfig } from "../../config/index.js";
import type { ConfigWriteParams, ConfigWritten } from "../live-config/config-writes.js";
import { redactedConfigText } from "./config-raw.js";
import { defineMethod, type MethodCall, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

type WriteDeps = Pick<MethodDeps, "live" | "configWrites" | "logger">;
const WRITE_USES = ["live", "configWrites", "logger"] as const;

/** Reloads after a write and answers with what was written and whether it runs. */
function applied(deps: WriteDeps, reason: string, written: ConfigWritten | undefined) {
  const reload = deps.live.reload(reason);
  const status = deps.live.status();
  const restartKeys = reload.ok ? reload.restartNeeded : ["gateway.auth"];
  return ok({
    ok: true,
    path: status.path,
    hash: status.file.hash,
    ...(written?.backupPath ? { backupPath: written.backupPath } : {}),
    config: redactConfig(deps.live.inspectFile().loaded.config),
    applied: reload.ok,
    restart: {
      needed: restartKeys.length > 0,
      keys: restartKeys,
      ...(reload.ok ? {} : { reason: reload.message }),
    },
    ...(reload.ok ? {} : { warnings: [reload.message] }),
  });
}

/** A config write method: `kind` says whether `raw` is the whole file or a merge patch. */
function writeHandler(reason: string, kind: "whole" | "patch") {
  return async (call: MethodCall<ConfigWriteParams>, deps: WriteDeps) => {
    const outcome = await deps.configWrites[kind](call.params);
    if (outcome.kind === "refused") return outcome.answer;
    if (outcome.kind === "unchanged") return applied(deps, reason, undefined);
    deps.logger.info({ connId: call.client.connId }, `config written by ${reason}`);
    return applied(deps, reason, outcome.written);
  };
}

function configGet(_call: MethodCall<unknown>, deps: Pick<MethodDeps, "live">) {
  const status = deps.live.status();
  const file = deps.live.inspectFile().loaded;
  // The file's text for an editor (secrets redacted, comments kept), when it can be shown safely.
  const raw = status.file.exists ? redactedConfigText(status.path, status.file.hash) : undefined;
  return ok({
    path: status.path,
    exists: status.file.exists,
    valid: status.file.valid,
    hash: status.file.hash,
    ...(raw !== undefined ? { raw } : {}),
    config: redactConfig(file.config),
    issues: status.file.issues,
    running: status.running,
    inSync: status.inSync,
    ...(status.rejected ? { rejected: status.rejected } : {}),
    ...(status.warning ? { warning: status.warning } : {}),
  });
}

/** The config method group (all operator.admin). */
export const configMethods = [
  defineMethod({ name: "config.get", scope: "operator.admin", uses: ["live"], handler: configGet }),
  defineMethod({
    name: "config.schema",
    scope: "operator.admin",
    uses: ["gateway"],
    handler: async (_call, deps) => {
      const { CONFIG_JSON_SCHEMA } = await import("../../protocol/config/schema.generated.js");
      return ok({ schema: CONFIG_JSON_SCHEMA, uiHints: {}, version: deps.gateway.version });
    },
  }),
  defineMethod({
    name: "config.set",
    scope: "operator.admin",
    uses: WRITE_USES,
    handler: writeHandler("config.set", "whole"),
  }),
  defineMethod({
    name: "config.apply",
    scope: "operator.admin",
    uses: WRITE_USES,
    handler: writeHandler("config.apply", "whole"),
  }),
  defineMethod({
    name: "config.patch",
    scope: "operator.admin",
    uses: WRITE_USES,
    handler: writeHandler("config.patch", "patch"),
  }),
];
