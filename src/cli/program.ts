// The `pincer` command tree. Only commander is loaded up front; each action imports its
// command module on demand so `pincer --help` does no work it does not need.
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { InvalidProfileNameError } from "../config/paths.js";
import { agentCommands } from "./agent/commands.js";
import { agentsCommands, agentsGroup } from "./agents/commands.js";
import {
  channelsCommands,
  channelsGroup,
  failuresGroup,
  messageGroup,
} from "./channels/commands.js";
import type { CommandInput } from "./command.js";
import { type CliContext, CliError, type CliIo, ExitCode } from "./command-context.js";
import { completionCommands } from "./completion/commands.js";
import { configCommands, configGroup } from "./config/commands.js";
import { contextCommands } from "./context/commands.js";
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
import { onboardCommands } from "./onboard/commands.js";
import { pairingCommands, pairingGroup } from "./pairing/commands.js";
import { type RegisterParams, registerCommands } from "./register.js";
import { sessionsCommands, sessionsGroup } from "./sessions/commands.js";
import { setupCommand } from "./setup/commands.js";
import { skillsCommands, skillsGroup } from "./skills/commands.js";
import { statusCommands } from "./status/commands.js";
import { uninstallCommands } from "./uninstall/commands.js";

/** What an action receives (declared with the commands, in command.ts). */
export type { CommandInput };

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
  // What every family's registerCommands call shares.
  const family: Omit<RegisterParams, "groups" | "commands"> = {
    root: program,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
    call: { argv, io },
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

  registerCommands({ ...family, groups: [agentsGroup], commands: agentsCommands });

  registerCommands({ ...family, groups: [], commands: [setupCommand] });

  registerCommands({ ...family, groups: [skillsGroup], commands: skillsCommands });

  registerCommands({ ...family, groups: [], commands: contextCommands });

  registerCommands({ ...family, groups: [sessionsGroup], commands: sessionsCommands });

  registerCommands({ ...family, groups: [modelsGroup, modelsAuthGroup], commands: modelsCommands });

  registerCommands({ ...family, groups: [], commands: agentCommands });

  registerCommands({ ...family, groups: [devicesGroup], commands: devicesCommands });

  registerCommands({ ...family, groups: [configGroup], commands: configCommands });

  registerCommands({
    ...family,
    groups: [channelsGroup, failuresGroup, messageGroup],
    commands: channelsCommands,
  });
  registerCommands({ ...family, groups: [pairingGroup], commands: pairingCommands });
  registerCommands({ ...family, groups: [], commands: onboardCommands });
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
