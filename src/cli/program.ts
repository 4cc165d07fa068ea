// The `pincer` command tree. Only commander is loaded up front; each action imports its
// command module on demand so `pincer --help` does no work it does not need.
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { InvalidProfileNameError } from "../config/paths.js";
import { agentsCommands, agentsGroup } from "./agents/commands.js";
import {
  channelsCommands,
  channelsGroup,
  failuresGroup,
  messageGroup,
} from "./channels/commands.js";
import type { CommandInput } from "./command.js";
import { configCommands, configGroup } from "./config/commands.js";
import { type CliContext, CliError, type CliIo, ExitCode } from "./context.js";
import { devicesCommands, devicesGroup } from "./devices/commands.js";
import { asksForJson, jsonUsageOutput } from "./gateway-run-usage.js";
import {
  checkProfileEnv,
  checkProfileName,
  findProfileFlag,
  findShadowedGlobalOptions,
  profileNotice,
} from "./global-profile.js";
import { checkSubcommandTypo, describeOption, rewriteHelpArgv } from "./help-command.js";
import { onboardCommands } from "./onboard/commands.js";
import { pairingCommands, pairingGroup } from "./pairing/commands.js";
import { registerOpsCommands } from "./program-ops.js";
import { registerCommands } from "./register.js";
import { sessionsCommands, sessionsGroup } from "./sessions/commands.js";
import { setupCommand } from "./setup/commands.js";

/** What an action receives (declared with the commands, in command.ts). */
export type { CommandInput };

// biome-ignore lint/suspicious/noExplicitAny: each command narrows its own options type.
type Action = (ctx: CliContext, input: CommandInput<any>) => Promise<number | undefined>;

function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
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
    .action(lazy(() => import("./gateway-run.js")));
  withGatewayClient(
    gateway
      .command("call")
      .description("call one gateway method and print the response payload as JSON")
      .argument("<method>", "method, e.g. health, status, sessions.list")
      .option("--params <json>", "params as a JSON object")
      .option("--expect-final", "wait past the accepted ack for the final response (agent)"),
  ).action(lazy(() => import("./gateway-call.js")));
  gateway
    .command("install")
    .description(
      "install a systemd user unit that runs the gateway and restarts it (enable --now); needs a user bus",
    )
    .option("--port <port>", "port the service listens on (default gateway.port or 18789)")
    .option("--force", "overwrite an existing unit file")
    .action(lazy(() => import("./gateway-install.js")));
  gateway
    .command("uninstall")
    .description("stop and disable the systemd user unit and remove its file (idempotent)")
    .action(lazy(() => import("./gateway-uninstall.js")));
  gateway
    .command("stop")
    .description(
      "stop the gateway: systemctl --user stop, else SIGTERM to the state-dir lock's pid (idempotent)",
    )
    .option(
      "--timeout <ms>",
      "how long to wait for an unsupervised gateway to exit (default 30000)",
    )
    .action(lazy(() => import("./gateway-stop.js")));
  gateway
    .command("restart")
    .description("restart the gateway service (systemd); explains what to do when unsupervised")
    .action(lazy(() => import("./gateway-restart.js")));
  gateway
    .command("status")
    .description("is the service installed, and is a gateway running for this state dir")
    .option("--json", "print JSON")
    .action(lazy(() => import("./gateway-status.js")));
  withGatewayClient(
    program.command("health").description("ask the running gateway for its health summary"),
  ).action(lazy(() => import("./health.js")));
  withGatewayClient(
    program
      .command("status")
      .description(
        "gateway, agents, sessions, channels and models at a glance (local state if no gateway)",
      )
      .option("--all", "list every session and every available model"),
  ).action(lazy(() => import("./status.js")));

  registerCommands({
    root: program,
    groups: [agentsGroup],
    commands: agentsCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  registerCommands({
    root: program,
    groups: [],
    commands: [setupCommand],
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  const skills = program
    .command("skills")
    .description("list the skills an agent can use, and why some are not offered");
  skills
    .command("list", { isDefault: true })
    .description("list skills with source (workspace, managed, bundled, extra), status and reason")
    .option("--agent <id>", "agent whose workspace skills to include (default: the default agent)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./skills-list.js")));

  program
    .command("context")
    .description("what a run would send to the model, and how big each part is")
    .option("--agent <id>", "agent (default: the default agent)")
    .option("--session <key>", "session key (default: the agent's main session)")
    .option("--detail", "break down every prompt section, file, tool schema and skill")
    .option("--json", "print JSON")
    .action(lazy(() => import("./context-report.js")));

  registerCommands({
    root: program,
    groups: [sessionsGroup],
    commands: sessionsCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  const models = program
    .command("models")
    .description("show and manage each agent's models, fallbacks and credentials");
  models
    .command("status", { isDefault: true })
    .description("each agent's primary and fallbacks and the credential each would use")
    .option("--agent <id>", "only this agent (default: every agent)")
    .option("--check", "exit 1 when a model is unknown, has no credential or breaks a fail policy")
    .option("--json", "print JSON")
    .action(lazy(() => import("./models-status.js")));
  models
    .command("list")
    .description("custom and built-in models, marking the ones agents use")
    .option("--provider <id>", "only this provider's models")
    .option("--json", "print JSON")
    .action(lazy(() => import("./models-list.js")));
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
    .action(lazy(() => import("./models-auth-add.js")));

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
    .action(lazy(() => import("./agent-run.js")));

  registerCommands({
    root: program,
    groups: [devicesGroup],
    commands: devicesCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  registerCommands({
    root: program,
    groups: [configGroup],
    commands: configCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });

  registerCommands({
    root: program,
    groups: [channelsGroup, failuresGroup, messageGroup],
    commands: channelsCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  registerCommands({
    root: program,
    groups: [pairingGroup],
    commands: pairingCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  registerCommands({
    root: program,
    groups: [],
    commands: onboardCommands,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
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
