// config.get (the file as it is now, secrets redacted, with its issues and which config is running) /
// config.schema / config.set (whole file) / config.apply (whole file, applied live) / config.patch
// (JSON5 merge patch, comments kept). Writes (config-write.ts) take the config write lock, compare
// `baseHash`, are validated first, keep the previous file as `.bak`, are written atomically and are
// applied at once — unless the reload is refused (auth that would weaken), which the answer says.
import { redactConfig } from "../../config/index.js";
import {
  type ConfigWriteOutcome,
  type ConfigWriteParams,
  type ConfigWritten,
  patchConfig,
  writeWholeConfig,
} from "../config-write.js";
import { type GatewayCore, type MethodCall, type MethodHandler, ok } from "../context.js";

/** Reloads after a write and answers with what was written and whether it runs. */
function applied(core: GatewayCore, reason: string, written: ConfigWritten | undefined) {
  const reload = core.live.reload(reason);
  const status = core.live.status();
  const restartKeys = reload.ok ? reload.restartNeeded : ["gateway.auth"];
  return ok({
    ok: true,
    path: status.path,
    hash: status.file.hash,
    ...(written?.backupPath ? { backupPath: written.backupPath } : {}),
    config: redactConfig(core.live.inspectFile().loaded.config),
    applied: reload.ok,
    restart: {
      needed: restartKeys.length > 0,
      keys: restartKeys,
      ...(reload.ok ? {} : { reason: reload.message }),
    },
    ...(reload.ok ? {} : { warnings: [reload.message] }),
  });
}

function writeHandler(
  reason: string,
  write: (core: GatewayCore, params: ConfigWriteParams) => Promise<ConfigWriteOutcome>,
): MethodHandler {
  return async (call: MethodCall<ConfigWriteParams>) => {
    const outcome = await write(call.core, call.params);
    if (outcome.kind === "refused") return outcome.answer;
    if (outcome.kind === "unchanged") return applied(call.core, reason, undefined);
    call.core.logger.info({ connId: call.client.connId }, `config written by ${reason}`);
    return applied(call.core, reason, outcome.written);
  };
}

/** The config method group (all operator.admin). */
export const configMethods: Record<string, MethodHandler> = {
  "config.get": (call) => {
    const { core } = call;
    const status = core.live.status();
    const file = core.live.inspectFile().loaded;
    return ok({
      path: status.path,
      exists: status.file.exists,
      valid: status.file.valid,
      hash: status.file.hash,
      config: redactConfig(file.config),
      issues: status.file.issues,
      running: status.running,
      inSync: status.inSync,
      ...(status.rejected ? { rejected: status.rejected } : {}),
      ...(status.warning ? { warning: status.warning } : {}),
    });
  },
  "config.schema": async (call) => {
    const { CONFIG_JSON_SCHEMA } = await import("../../protocol/config/schema.generated.js");
    return ok({ schema: CONFIG_JSON_SCHEMA, uiHints: {}, version: call.core.version });
  },
  "config.set": writeHandler("config.set", writeWholeConfig),
  "config.apply": writeHandler("config.apply", writeWholeConfig),
  "config.patch": writeHandler("config.patch", patchConfig),
};
