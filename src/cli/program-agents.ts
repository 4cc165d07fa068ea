// The roster and routing edits of `pincer agents`: `delete`, `bindings`, `bind`, `unbind` (OpenClaw's
// shapes). Registered by program.ts under `agents`; each action loads its module on demand.
import type { Command } from "commander";

/** What program.ts hands over: the lazy action wrapper. */
export interface AgentCommandTools {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors program.ts's lazy loader signature.
  lazy: (load: () => Promise<{ run: any }>) => (...args: unknown[]) => Promise<void>;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds `agents delete|bindings|bind|unbind` to the `agents` command. */
export function registerAgentEditCommands(agents: Command, tools: AgentCommandTools): void {
  const { lazy } = tools;
  agents
    .command("delete")
    .description(
      "remove an agent and its bindings from the config (its workspace and sessions stay on disk)",
    )
    .argument("<id>", "agent id")
    .option("--force", "also delete the default (or the only) agent")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-delete.js")));
  agents
    .command("bindings")
    .description("list the routing bindings (bindings[]), optionally of one agent")
    .option("--agent <id>", "only this agent's bindings")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-bindings.js")));
  agents
    .command("bind")
    .description("route a channel (or one account of it) to an agent")
    .option("--agent <id>", "agent (default: the default agent)")
    .option("--bind <channel[:accountId]>", "channel or channel:accountId; repeatable", collect, [])
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-bind.js")));
  agents
    .command("unbind")
    .description("remove an agent's channel bindings (--bind …) or all of them (--all)")
    .option("--agent <id>", "agent (default: the default agent)")
    .option("--bind <channel[:accountId]>", "channel or channel:accountId; repeatable", collect, [])
    .option("--all", "every binding of the agent")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-unbind.js")));
}
