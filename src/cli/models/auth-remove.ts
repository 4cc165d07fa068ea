// `pincer models auth remove <profile-id> [--agent ID]`: deletes one profile from the agent's
// auth-profiles.json together with its health record, lastGood mark and place in any order.
import { readAuthStore } from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson } from "../command-context.js";
import { openAuthAgent, updateAgentStore } from "./auth-common.js";
import type { authRemoveOptions } from "./commands.js";

/** Removes one profile and every reference to it. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof authRemoveOptions>,
): Promise<number> {
  const profileId = args[0]?.trim();
  if (!profileId)
    throw new CliError(
      "remove needs the profile id (see: pincer models auth list)",
      ExitCode.usage,
    );
  const { agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const read = readAuthStore(agent.agentDir);
  if (read.error) throw new CliError(read.error);
  if (!read.store.profiles[profileId]) {
    const known = Object.keys(read.store.profiles).join(", ") || "none";
    throw new CliError(`unknown profile "${profileId}" in ${read.path} (profiles: ${known})`);
  }
  await updateAgentStore(
    ctx,
    { agentDir: agent.agentDir, command: "models auth remove" },
    (store) => {
      delete store.profiles[profileId];
      if (store.usageStats) delete store.usageStats[profileId];
      for (const [provider, id] of Object.entries(store.lastGood ?? {})) {
        if (id === profileId && store.lastGood) delete store.lastGood[provider];
      }
      for (const [provider, ids] of Object.entries(store.order ?? {})) {
        if (!store.order || !ids.includes(profileId)) continue;
        const rest = ids.filter((id) => id !== profileId);
        // An order emptied by the removal would shut the provider's other profiles out: drop it.
        if (rest.length) store.order[provider] = rest;
        else delete store.order[provider];
      }
    },
  );
  if (opts.json) printJson(ctx, { agentId, removed: profileId, path: read.path });
  else ctx.stderr(`removed ${profileId} from agent ${agentId}\n`);
  return 0;
}
