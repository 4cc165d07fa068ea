// The everyday operator commands of the `pincer` tree: `doctor`, `logs`, `dashboard`, `uninstall` and
// `completion`. Registered by program.ts; each action loads its module on demand.
import type { Command } from "commander";

/** What program.ts hands over: the lazy action wrapper. */
export interface OpsCommandTools {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors program.ts's lazy loader signature.
  lazy: (load: () => Promise<{ run: any }>) => (...args: unknown[]) => Promise<void>;
}

/** Adds doctor, logs, dashboard, uninstall and completion to `program`. */
export function registerOpsCommands(program: Command, tools: OpsCommandTools): void {
  const { lazy } = tools;
  program
    .command("doctor")
    .description(
      "check config, state-dir permissions, stale locks, orphan transcripts, workspaces and providers",
    )
    .option("--fix", "apply the safe repairs (permissions, stale locks, missing workspaces)")
    .option("--repair", "alias of --fix")
    .option("--yes", "accept the safe repairs without asking (same as --fix)")
    .option("--non-interactive", "never prompt (doctor never does; accepted for scripts)")
    .option("--offline", "skip the provider reachability probe")
    .option("--json", "print JSON")
    .action(lazy(() => import("./doctor/doctor.js")));

  program
    .command("logs")
    .description("show the gateway's log file (last lines; --follow tails it across rotations)")
    .option("--limit <n>", "lines to show (default 200)")
    .option("--max-bytes <n>", "bytes to read from the end of the file (default 250000)")
    .option("--follow", "keep printing new lines until interrupted (Ctrl-C)")
    .option("--interval <ms>", "poll interval while following (default 1000)")
    .option("--json", "print the JSON lines as written (secrets masked like the console)")
    .option("--plain", "plain text without colour")
    .option("--local-time", "show times in local time (the default)")
    .option("--utc", "show times in UTC")
    .action(lazy(() => import("./logs/logs.js")));

  program
    .command("dashboard")
    .description("print the WebChat / Control UI URL with a token link, and open it on a desktop")
    .option("--open", "open a browser even without a terminal")
    .option("--no-open", "only print the URL")
    .option("--json", "print JSON")
    .action(lazy(() => import("./dashboard/dashboard.js")));

  program
    .command("uninstall")
    .description("remove the gateway service, the state dir and/or the workspaces (the CLI stays)")
    .option("--service", "remove the gateway service (systemd user unit)")
    .option("--state", "remove the state dir (config, sessions, credentials); keeps workspaces")
    .option("--workspace", "remove the configured agent workspaces")
    .option("--all", "service, state and workspaces")
    .option("--yes", "do not ask for confirmation")
    .option("--non-interactive", "never prompt (needs --yes for anything destructive)")
    .option("--dry-run", "only list what would be removed")
    .option("--json", "print JSON")
    .action(lazy(() => import("./uninstall/uninstall.js")));

  program
    .command("completion")
    .description("print a shell completion script (bash, zsh or fish) for the whole command tree")
    .argument("[shell]", "bash, zsh or fish (default: --shell, else $SHELL, else zsh)")
    .option("-s, --shell <shell>", "bash, zsh or fish")
    .option("--write-state", "write the script to <stateDir>/completions/ instead of printing it")
    .action(
      lazy(() =>
        import("./completion/completion.js").then((m) => ({
          run: m.runFor(program),
        })),
      ),
    );
}
