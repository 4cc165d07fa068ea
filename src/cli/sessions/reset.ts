// `pincer sessions reset KEY [--agent ID] [--json]`: start a fresh session under the same key; the old
// transcript is kept as `<file>.reset.<ts>`. Takes the state-dir lock (refused while a gateway runs).

import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { resetOptions } from "./commands.js";
import {
  findSessionKey,
  openConfiguredStore,
  resolveSessionTarget,
  withStateDirLock,
} from "./common.js";

/** Resets one session and reports the new id and where the old transcript went. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof resetOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const target = resolveSessionTarget(loaded, {
    rawKey: args[0] ?? "",
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
  });
  const result = await withStateDirLock(ctx, {
    loaded,
    command: "sessions reset",
    run: async (lock) => {
      const store = await openConfiguredStore(ctx, { loaded, agent: target.agent, lock });
      try {
        return store.reset(findSessionKey(store, target));
      } finally {
        await store.close();
      }
    },
  });
  if (opts.json) {
    printJson(ctx, {
      agentId: target.agent.id,
      key: result.key,
      previousSessionId: result.previous.sessionId,
      sessionId: result.entry.sessionId,
      archivedTranscript: result.archivedTranscript ?? null,
    });
    return 0;
  }
  printLine(ctx, `Reset ${result.key}: new session ${result.entry.sessionId}`);
  printLine(
    ctx,
    result.archivedTranscript
      ? `  old transcript kept as ${displayPath(result.archivedTranscript, loaded.paths.home)}`
      : "  (the old session had no transcript)",
  );
  return 0;
}
