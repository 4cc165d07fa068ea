// The `pincer` command tree. Only commander is loaded up front; each action imports its
// command module on demand so `pincer --help` does no work it does not need.
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { InvalidProfileNameError } from "../config/paths.js";
import { agentCommands } from "./agent/commands.js";
import type { CommandInput } from "./command.js";
import { completionCommands } from "./completion/commands.js";
import { contextCommands } from "./context/commands.js";
import { type CliContext, CliError, type CliIo, ExitCode } from "./context.js";
import { dashboardCommands } from "./dashboard/commands.js";
import { devicesCommands, devicesGroup } from "./devices/commands.js";
import { doctorCommands } from "./doctor/commands.js";
import { gatewayCommands, gatewayGroup } from "./gateway/commands.js";
import {
  checkProfileEnv,
  checkProfileName,
  findProfileFlag,
  findShadowedGlobalOptions,
  profileNotice,
} from "./global-profile.js";
import { checkSubcommandTypo, describeOption, rewriteHelpArgv } from "./help-command.js";
import { logsCommands } from "./logs/commands.js";
import { modelsAuthGroup, modelsCommands, modelsGroup } from "./models/commands.js";
import { registerAgentEditCommands } from "./program-agents.js";
import { registerChannelCommands } from "./program-channels.js";
import { registerOnboardCommands } from "./program-onboard.js";
import { type RegisterParams, registerCommands } from "./register.js";
import { skillsCommands, skillsGroup } from "./skills/commands.js";
import { statusCommands } from "./status/commands.js";
import { uninstallCommands } from "./uninstall/commands.js";

/** What an action receives (declared with the commands, in command.ts). */
export type { CommandInput };

// biome-ignore lint/suspicious/noExplicitAny: each command narrows its own options type.
type Action = (ctx: CliContext, input: CommandInput<any>) => Promise<number | undefined>;

function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Parses argv and runs the chosen command; resolves to the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = new Command("pincer");
  const contextOf = (): CliContext => {
    const opts = program.opts<{ profile?: string; color: boolean }>();
    const color = opts.color && io.isTty && !io.env.NO_COLOR;
    if (opts.profile !== undefined) {
      checkProfileName(opts.profile);
      if (findProfileFlag(argv)?.afterCommand)
        io.stderr(profileNotice({ profile: opts.profile, env: io.env }));
    } else checkProfileEnv(io.env);
    return { ...io, ...(opts.profile ? { profile: opts.profile } : {}), color };
  };
  // What every family's registerCommands call shares.
  const family: Omit<RegisterParams, "groups" | "commands"> = {
    root: program,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
    call: { argv, io },
  };
  // Each action: lazily import the module, run it, remember its exit code.
  const lazy =
    (load: () => Promise<{ run: Action }>) =>
    async (...args: unknown[]) => {
      const mod = await load();
      // commander calls actions with (...positionals, options, command).
      const input = {
        args: args.slice(0, -2) as string[],
        opts: args.at(-2) as Record<string, unknown>,
      };
      exitCode = (await mod.run(contextOf(), input)) ?? ExitCode.ok;
    };

  /** Adds the options every gateway client command shares. */
  const withGatewayClient = (cmd: Command, opts: { timeout: boolean } = { timeout: true }) => {
    cmd
      .option("--url <url>", "gateway URL (default ws://127.0.0.1:<gateway.port or 18789>)")
      .option(
        "--token <token>",
        "gateway token (default OPENCLAW_GATEWAY_TOKEN, gateway.auth.token, or the state dir's gateway.token)",
      )
      .option("--password <password>", "gateway password")
      .option("--json", "print JSON");
    if (opts.timeout)
      cmd.option("--timeout <ms>", "connect and request timeout in ms (default 10000)");
    return cmd;
  };

  program
    .description("Pincer: a self-hosted AI agent gateway, compatible with OpenClaw")
    .version(packageVersion(), "-V, --version")
    .option("--profile <name>", "use the state dir ~/.openclaw-<name> (env OPENCLAW_PROFILE)")
    .option("--no-color", "disable coloured output")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ optionDescription: describeOption })
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  registerCommands({ ...family, groups: [gatewayGroup], commands: gatewayCommands });
  registerCommands({ ...family, groups: [], commands: statusCommands });

  const agents = program
    .command("agents")
    .description("list, add and inspect agents and their routing");
  agents
    .command("list")
    .description("list agents with workspace, agentDir, model and default mark")
    .option("--bindings", "also show each agent's routing rules")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-list.js")));
  agents
    .command("add")
    .description("add an isolated agent: workspace, agentDir, sessions dir, config entry, bindings")
    .argument("[name]", "agent id (lowercase letters, digits, - and _)")
    .option("--workspace <dir>", "workspace directory (default ~/.openclaw/workspace-<id>)")
    .option("--agent-dir <dir>", "agent state dir (default <stateDir>/agents/<id>/agent)")
    .option("--model <ref>", "primary model, provider/model")
    .option(
      "--bind <channel[:accountId]>",
      "route a channel (or one account of it) to the agent; repeatable",
      collect,
      [],
    )
    .option("--non-interactive", "never prompt (the default: a missing name is an error)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-add.js")));
  registerAgentEditCommands(agents, { lazy });
  agents
    .command("route")
    .description("show which agent and session an inbound message would reach, and why")
    .option("--channel <channel>", "channel, e.g. whatsapp, telegram, discord, slack")
    .option("--account <id>", "channel account id (default: default)")
    .option("--peer <kind:id>", "peer, kind direct|dm|group|channel, e.g. group:-1001234")
    .option("--parent-peer <kind:id>", "parent peer of a thread or topic")
    .option("--guild <id>", "Discord guild id")
    .option("--team <id>", "Slack team id")
    .option("--roles <r1,r2>", "member role ids (Discord)")
    .option("--stdin", "read JSONL inputs from stdin, write one JSON route per line")
    .option("--json", "print JSON")
    .action(lazy(() => import("./agents-route.js")));

  program
    .command("setup")
    .description("create the config if missing and seed the agent's workspace (never overwrites)")
    .option("--workspace <dir>", "workspace directory; written to the config")
    .option("--agent <id>", "agent to set up (default: the default agent)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./setup.js")));

  registerCommands({ ...family, groups: [skillsGroup], commands: skillsCommands });

  registerCommands({ ...family, groups: [], commands: contextCommands });

  const sessions = program
    .command("sessions")
    .description("list, inspect, reset, delete and clean up conversation sessions");
  sessions
    .command("list", { isDefault: true })
    .description("list sessions, most recently active first (reads only sessions.json)")
    .option("--agent <id>", "agent whose sessions to list (default: the default agent)")
    .option("--all-agents", "list the sessions of every agent")
    .option("--active <minutes>", "only sessions active in the last N minutes")
    .option("--json", "print JSON")
    .action(lazy(() => import("./sessions-list.js")));
  sessions
    .command("show")
    .description("show a session's metadata and the last entries of its transcript")
    .argument("<key>", "session key, e.g. main or agent:work:telegram:group:-100123")
    .option("--agent <id>", "agent owning a bare key (default: the key's agent, else the default)")
    .option("--tail <n>", "entries of the current branch to show (default 20)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./sessions-show.js")));
  sessions
    .command("reset")
    .description("start a new session under KEY; the old transcript is kept as *.reset.<ts>")
    .argument("<key>", "session key")
    .option("--agent <id>", "agent owning a bare key")
    .option("--json", "print JSON")
    .action(lazy(() => import("./sessions-reset.js")));
  sessions
    .command("delete")
    .description("delete a session; its transcript is kept as *.deleted.<ts> until cleanup")
    .argument("<key>", "session key")
    .option("--agent <id>", "agent owning a bare key")
    .option("--json", "print JSON")
    .action(lazy(() => import("./sessions-delete.js")));
  sessions
    .command("cleanup")
    .description(
      "apply session.maintenance now: prune idle and excess sessions, remove old archives",
    )
    .option("--agent <id>", "agent whose store to clean (default: the default agent)")
    .option("--all-agents", "clean every agent's store")
    .option("--dry-run", "only report what would be removed")
    .option("--json", "print JSON")
    .action(lazy(() => import("./sessions-cleanup.js")));

  registerCommands({ ...family, groups: [modelsGroup, modelsAuthGroup], commands: modelsCommands });

  registerCommands({ ...family, groups: [], commands: agentCommands });

  registerCommands({
    root: program,
    groups: [devicesGroup],
    commands: devicesCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  const config = program.command("config").description("read, change and validate openclaw.json");
  config
    .command("get")
    .description("print the value at a config path, e.g. agents.list[0].model")
    .argument("<path>", "dot path")
    .option("--json", "print JSON")
    .option("--show-secrets", "print secrets instead of __REDACTED__")
    .action(lazy(() => import("./config-get.js")));
  config
    .command("set")
    .description("set a value (parsed as JSON5, else taken as a string); validates before writing")
    .argument("[path]", "dot path")
    .argument("[value]", "new value")
    .addOption(new Option("--string", "store the value as a string without parsing"))
    .option("--strict-json", "the value must parse as JSON/JSON5 (no fallback to a string)")
    .option("--merge", "merge an object value into the object at the path (keys not given stay)")
    .option("--replace", "replace the value at the path whole (the default)")
    .option("--dry-run", "validate the change exactly as a write would, writing nothing")
    .option("--batch-json <json>", 'several values in one write: [{"path": …, "value": …}, …]')
    .option("--batch-file <file>", "like --batch-json, read from a file")
    .option("--json", "print JSON")
    .action(lazy(() => import("./config-set.js")));
  config
    .command("unset")
    .description("remove the key at a config path; validates before writing")
    .argument("<path>", "dot path")
    .option("--json", "print JSON")
    .action(lazy(() => import("./config-unset.js")));
  config
    .command("validate")
    .description("check the config and print every problem with its file and line")
    .option("--json", "print JSON")
    .action(lazy(() => import("./config-validate.js")));
  config
    .command("file")
    .description("print the path of the active config file")
    .option("--json", "print JSON")
    .action(lazy(() => import("./config-file.js")));

  registerChannelCommands(program, { lazy, withGatewayClient });
  registerOnboardCommands(program, { lazy });
  registerCommands({
    ...family,
    groups: [],
    commands: [
      ...doctorCommands,
      ...logsCommands,
      ...dashboardCommands,
      ...uninstallCommands,
      ...completionCommands(program),
    ],
  });
  // A subcommand option named like a global flag would never reach the subcommand: a bug.
  const shadowed = findShadowedGlobalOptions(program);
  if (shadowed.length > 0)
    throw new Error(`options shadowed by global flags: ${shadowed.join(", ")}`);

  try {
    checkSubcommandTypo(argv, program);
    await program.parseAsync(rewriteHelpArgv(argv, program), { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      const benign = ["commander.helpDisplayed", "commander.version", "commander.help"];
      // `help` (exit 0) vs a group run without a subcommand (help on stderr, commander's exit 1).
      if (benign.includes(err.code)) return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      return ExitCode.usage;
    }
    if (err instanceof CliError) {
      io.stderr(`error: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof InvalidProfileNameError) {
      io.stderr(`error: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
}
