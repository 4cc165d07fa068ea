// The whole `pincer` tree in `pincer --help` order: every family's groups and declared commands.
// Adding a family is one line here; program.ts registers the list as it is.
import type { Command } from "commander";
import { agentCommands } from "./agent/commands.js";
import { agentsCommands, agentsGroup } from "./agents/commands.js";
import { approvalsCommands, approvalsGroup } from "./approvals/commands.js";
import {
  channelsCommands,
  channelsGroup,
  failuresGroup,
  messageGroup,
} from "./channels/commands.js";
import type { CommandSpec, GroupSpec } from "./command.js";
import { completionCommands } from "./completion/commands.js";
import { configCommands, configGroup } from "./config/commands.js";
import { contextCommands } from "./context/commands.js";
import { cronCommands, cronGroup } from "./cron/commands.js";
import { dashboardCommands } from "./dashboard/commands.js";
import { devicesCommands, devicesGroup } from "./devices/commands.js";
import { doctorCommands } from "./doctor/commands.js";
import { gatewayCommands, gatewayGroup } from "./gateway/commands.js";
import { hooksCommands, hooksGroup } from "./hooks/commands.js";
import { logsCommands } from "./logs/commands.js";
import { memoryCommands, memoryGroup } from "./memory/commands.js";
import { modelsAuthGroup, modelsCommands, modelsGroup } from "./models/commands.js";
import { nodeCommands, nodeGroup } from "./node/commands.js";
import { onboardCommands } from "./onboard/commands.js";
import { pairingCommands, pairingGroup } from "./pairing/commands.js";
import { pluginsCommands, pluginsGroup } from "./plugins/commands.js";
import { sandboxCommands, sandboxGroup } from "./sandbox/commands.js";
import { sessionsCommands, sessionsGroup } from "./sessions/commands.js";
import { setupCommand } from "./setup/commands.js";
import { skillsCommands, skillsGroup } from "./skills/commands.js";
import { statusCommands } from "./status/commands.js";
import { uninstallCommands } from "./uninstall/commands.js";
import { usageCommands } from "./usage/commands.js";
import { workerCommands } from "./worker/commands.js";

/** Every group and command; `root` is handed to the commands that walk the tree (completion). */
export function commandTree(root: Command): { groups: GroupSpec[]; commands: CommandSpec[] } {
  const families: Array<[GroupSpec[], readonly CommandSpec[]]> = [
    [[gatewayGroup], gatewayCommands],
    [[], statusCommands],
    [[agentsGroup], agentsCommands],
    [[], [setupCommand]],
    [[skillsGroup], skillsCommands],
    [[pluginsGroup], pluginsCommands],
    [[hooksGroup], hooksCommands],
    [[sandboxGroup], sandboxCommands],
    [[], contextCommands],
    [[memoryGroup], memoryCommands],
    [[sessionsGroup], sessionsCommands],
    [[modelsGroup, modelsAuthGroup], modelsCommands],
    [[], usageCommands],
    [[], agentCommands],
    [[devicesGroup], devicesCommands],
    [[nodeGroup], nodeCommands],
    [[], workerCommands],
    [[approvalsGroup], approvalsCommands],
    [[cronGroup], cronCommands],
    [[configGroup], configCommands],
    [[channelsGroup, failuresGroup, messageGroup], channelsCommands],
    [[pairingGroup], pairingCommands],
    [[], onboardCommands],
    [[], doctorCommands],
    [[], logsCommands],
    [[], dashboardCommands],
    [[], uninstallCommands],
    [[], completionCommands(root)],
  ];
  return {
    groups: families.flatMap(([groups]) => groups),
    commands: families.flatMap(([, commands]) => [...commands]),
  };
}
