// `pincer models auth order get|set|clear --provider P [--agent ID]`: the agent's own profile order
// for a provider (auth-profiles.json `order`), which wins over the config's `auth.order` and is
// exclusive: profiles left out are not used. `set` takes the profile ids in order.
import { normalizeProviderId, readAuthStore } from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { resolveProfileId } from "./auth-add.js";
import { checkProvider, openAuthAgent, updateAgentStore } from "./auth-common.js";
import type { authOrderOptions } from "./commands.js";

type OrderSource = "store" | "config" | "automatic";

function currentOrder(params: { stored?: string[]; configured?: string[] }): {
  order: string[];
  source: OrderSource;
} {
  if (params.stored) return { order: params.stored, source: "store" };
  if (params.configured) return { order: params.configured, source: "config" };
  return { order: [], source: "automatic" };
}

function describe(order: string[], source: OrderSource): string {
  if (source === "automatic")
    return "(no order: last good first, then OAuth > token > API key, least recently used)";
  const where = source === "store" ? "auth-profiles.json" : "config auth.order";
  return `${order.join(", ") || "(empty: no profile is used)"}  [${where}]`;
}

/** Shows, sets or clears the agent's profile order for one provider. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof authOrderOptions>,
): Promise<number> {
  const [action, ...ids] = args;
  if (action !== "get" && action !== "set" && action !== "clear") {
    throw new CliError(`order takes get, set or clear, not "${action ?? ""}"`, ExitCode.usage);
  }
  const { loaded, agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const provider = checkProvider(loaded, opts.provider);
  const read = readAuthStore(agent.agentDir);
  if (read.error) throw new CliError(read.error);
  if (action !== "set" && ids.length) {
    throw new CliError(
      `order ${action} takes no profile ids (got ${ids.join(" ")})`,
      ExitCode.usage,
    );
  }
  if (action === "set") {
    if (!ids.length)
      throw new CliError("order set needs the profile ids, in order", ExitCode.usage);
    const order = ids.map((id) => resolveProfileId(provider, id));
    for (const id of order) {
      const stored = read.store.profiles[id];
      const owner =
        typeof stored?.provider === "string" ? normalizeProviderId(stored.provider) : "";
      if (!stored) {
        const known = Object.keys(read.store.profiles).filter((key) => {
          const p = read.store.profiles[key]?.provider;
          return typeof p === "string" && normalizeProviderId(p) === provider;
        });
        throw new CliError(
          `unknown profile "${id}" in ${read.path} (${provider} profiles: ${known.join(", ") || "none"})`,
        );
      }
      if (owner !== provider)
        throw new CliError(`profile "${id}" is for ${owner || "(no provider)"}, not ${provider}`);
    }
    await updateAgentStore(
      ctx,
      { agentDir: agent.agentDir, command: "models auth order" },
      (store) => {
        store.order = { ...store.order, [provider]: order };
      },
    );
  } else if (action === "clear") {
    await updateAgentStore(
      ctx,
      { agentDir: agent.agentDir, command: "models auth order" },
      (store) => {
        if (!store.order) return;
        delete store.order[provider];
        if (Object.keys(store.order).length === 0) delete store.order;
      },
    );
  }
  const after = readAuthStore(agent.agentDir).store;
  const { order, source } = currentOrder({
    ...(after.order?.[provider] ? { stored: after.order[provider] } : {}),
    ...(loaded.config.auth?.order?.[provider]
      ? { configured: loaded.config.auth.order[provider] }
      : {}),
  });
  if (opts.json) printJson(ctx, { agentId, provider, order, source });
  else printLine(ctx, `${provider}: ${describe(order, source)}`);
  return 0;
}
