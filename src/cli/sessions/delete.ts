// `pincer sessions delete KEY [--agent ID] [--json]`: remove a session; its transcript is kept as
// `<file>.deleted.<ts>` until retention removes it. Takes the state-dir lock (refused while a gateway runs).
import { buildAgentMainSessionKey } from "../../routing/index.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  printJson,
  printLine,
} from "../command-context.js";
import { loadForCli } from "../load.js";
import type { deleteOptions } from "./commands.js";
import {
  findSessionKey,
  openConfiguredStore,
  resolveSessionTarget,
  withStateDirLock,
} from "./common.js";

/** Deletes one session (not the agent's main session: reset that instead, as OpenClaw requires). */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof deleteOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const target = resolveSessionTarget(loaded, {
    rawKey: args[0] ?? "",
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
  });
  const mainKey = buildAgentMainSessionKey({
    agentId: target.agent.id,
    mainKey: loaded.config.session?.mainKey ?? null,
  });
  if (target.key === mainKey) {
    throw new CliError(
      `cannot delete the main session (${mainKey}); use: pincer sessions reset ${mainKey}`,
    );
  }
  const removal = await withStateDirLock(ctx, {
    loaded,
    command: "sessions delete",
    run: async (lock) => {
      const store = await openConfiguredStore(ctx, { loaded, agent: target.agent, lock });
      try {
        return store.delete(findSessionKey(store, target))!;
      } finally {
        await store.close();
      }
    },
  });
  if (opts.json) {
    printJson(ctx, {
      agentId: target.agent.id,
      key: removal.key,
      sessionId: removal.previous.sessionId,
      archivedTranscript: removal.archivedTranscript ?? null,
    });
    return 0;
  }
  printLine(ctx, `Deleted ${removal.key} (session ${removal.previous.sessionId})`);
  if (removal.archivedTranscript) {
    printLine(
      ctx,
      `  transcript kept as ${displayPath(removal.archivedTranscript, loaded.paths.home)}`,
    );
  }
  return 0;
}
