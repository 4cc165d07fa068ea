// The `pincer` command tree. Only commander is loaded up front; each action imports its
// command module on demand so `pincer --help` does no work it does not need.
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { InvalidProfileNameError } from "../config/paths.js";
import type { CommandInput } from "./command.js";
import { type CliContext, CliError, type CliIo, ExitCode } from "./context.js";
import { devicesCommands, devicesGroup } from "./devices/commands.js";
import { asksForJson, jsonUsageOutput } from "./gateway/run-usage.js";
import {
  checkProfileEnv,
  checkProfileName,
  findProfileFlag,
  findShadowedGlobalOptions,
  profileNotice,
} from "./global-profile.js";
import { checkSubcommandTypo, describeOption, rewriteHelpArgv } from "./help-command.js";
import { registerAgentEditCommands } from "./program-agents.js";
import { registerChannelCommands } from "./program-channels.js";
import { registerOnboardCommands } from "./program-onboard.js";
import { registerOpsCommands } from "./program-ops.js";
import { registerCommands } from "./register.js";

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

  const gateway = program
    .command("gateway")
    .description("run the gateway daemon (WebSocket + HTTP on one port)");
  gateway
    .command("run", { isDefault: true })
    .description("run the gateway in the foreground until SIGTERM/SIGINT")
    .option("--port <port>", "port (default gateway.port or 18789; 0 picks a free one)")
    .option(
      "--bind <mode>",
      "loopback (default), lan, tailnet (this host's Tailscale address) or custom",
    )
    .option("--host <host>", "address for --bind custom")
    .option("--auth <mode>", "none, token or password")
    .option("--token <token>", "shared token (env OPENCLAW_GATEWAY_TOKEN)")
    .option("--password <password>", "shared password")
    .option(
      "--json",
      "print JSON lines only, on stdout and stderr (logs, the ready record, errors)",
    )
    .configureOutput(
      asksForJson(argv)
        ? jsonUsageOutput({
            writeOut: io.stdout,
            writeErr: io.stderr,
            pid: process.pid,
            now: Date.now,
          })
        : {},
    )
    .action(lazy(() => import("./gateway/run.js")));
  withGatewayClient(
    gateway
      .command("call")
      .description("call one gateway method and print the response payload as JSON")
      .argument("<method>", "method, e.g. health, status, sessions.list")
      .option("--params <json>", "params as a JSON object")
      .option("--expect-final", "wait past the accepted ack for the final response (agent)"),
  ).action(lazy(() => import("./gateway/call.js")));
  gateway
    .command("install")
    .description(
      "install a systemd user unit that runs the gateway and restarts it (enable --now); needs a user bus",
    )
    .option("--port <port>", "port the service listens on (default gateway.port or 18789)")
    .option("--force", "overwrite an existing unit file")
    .action(lazy(() => import("./gateway/install.js")));
  gateway
    .command("uninstall")
    .description("stop and disable the systemd user unit and remove its file (idempotent)")
    .action(lazy(() => import("./gateway/uninstall.js")));
  gateway
    .command("stop")
    .description(
      "stop the gateway: systemctl --user stop, else SIGTERM to the state-dir lock's pid (idempotent)",
    )
    .option(
      "--timeout <ms>",
      "how long to wait for an unsupervised gateway to exit (default 30000)",
    )
    .action(lazy(() => import("./gateway/stop.js")));
  gateway
    .command("restart")
    .description("restart the gateway service (systemd); explains what to do when unsupervised")
    .action(lazy(() => import("./gateway/restart.js")));
  gateway
    .command("status")
    .description("is the service installed, and is a gateway running for this state dir")
    .option("--json", "print JSON")
    .action(lazy(() => import("./gateway/status.js")));
  withGatewayClient(
    program.command("health").description("ask the running gateway for its health summary"),
  ).action(lazy(() => import("./status/health.js")));
  withGatewayClient(
    program
      .command("status")
      .description(
        "gateway, agents, sessions, channels and models at a glance (local state if no gateway)",
      )
      .option("--all", "list every session and every available model"),
  ).action(lazy(() => import("./status/status.js")));

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

  const skills = program
    .command("skills")
    .description("list the skills an agent can use, and why some are not offered");
  skills
    .command("list", { isDefault: true })
    .description("list skills with source (workspace, managed, bundled, extra), status and reason")
    .option("--agent <id>", "agent whose workspace skills to include (default: the default agent)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./skills/list.js")));

  program
    .command("context")
    .description("what a run would send to the model, and how big each part is")
    .option("--agent <id>", "agent (default: the default agent)")
    .option("--session <key>", "session key (default: the agent's main session)")
    .option("--detail", "break down every prompt section, file, tool schema and skill")
    .option("--json", "print JSON")
    .action(lazy(() => import("./context/report.js")));

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

  const models = program
    .command("models")
    .description("show and manage each agent's models, fallbacks and credentials");
  models
    .command("status", { isDefault: true })
    .description("each agent's primary and fallbacks and the credential each would use")
    .option("--agent <id>", "only this agent (default: every agent)")
    .option("--check", "exit 1 when a model is unknown, has no credential or breaks a fail policy")
    .option("--json", "print JSON")
    .action(lazy(() => import("./models/status.js")));
  models
    .command("list")
    .description("custom and built-in models, marking the ones agents use")
    .option("--provider <id>", "only this provider's models")
    .option("--json", "print JSON")
    .action(lazy(() => import("./models/list.js")));
  const modelsAuth = models
    .command("auth")
    .description("manage an agent's auth profiles (auth-profiles.json)");
  modelsAuth
    .command("add")
    .description("store an API key or token read from stdin as <provider>:<name> for one agent")
    .option("--agent <id>", "agent whose auth-profiles.json to write (default: the default agent)")
    .requiredOption("--provider <id>", "provider id, e.g. anthropic, openai, openrouter")
    .option(
      "--profile-id <id>",
      "auth profile id, <provider>:<name> or just <name> (default <provider>:default); --profile is the global state-dir flag",
    )
    .addOption(
      new Option("--type <type>", "credential type")
        .choices(["api_key", "token"])
        .default("api_key"),
    )
    .option("--json", "print JSON")
    .action(lazy(() => import("./models/auth-add.js")));

  program
    .command("agent")
    .description("run one agent turn through the gateway and stream the reply (--local: embedded)")
    .option("--local", "run the turn in this process, without a gateway")
    .option("--agent <id>", "agent (default: the session key's agent, else the default agent)")
    .option("--session-key <key>", "session key (default: the agent's main session)")
    .option("-m, --message <text>", "the message to send")
    .option("--timeout <seconds>", "abort the run after this many seconds (default 600)")
    .option("--url <url>", "gateway URL (default ws://127.0.0.1:<gateway.port or 18789>)")
    .option("--token <token>", "gateway token (default as for gateway call)")
    .option("--password <password>", "gateway password")
    .option("--json", "print the run result as JSON instead of streaming")
    .action(lazy(() => import("./agent/run.js")));

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
  registerOpsCommands(program, { lazy });
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
