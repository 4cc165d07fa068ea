// /restart: restarts the gateway when `commands.restart` is on (the default). The reply goes out
// first: the restart is asked for only once it is delivered and recorded (`afterReply`), so the
// message a restart replays is found answered and never restarts the gateway again. Authorized
// senders only (state-changing); over chat.send only connections with operator.admin. A config file
// the gateway could not start on refuses it (the gateway keeps running).
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

/** The scope an operator's connection needs for /restart. */
export const RESTART_SCOPE = "operator.admin";

/** The reply sent before the gateway restarts. */
export const RESTARTING_TEXT = "Restarting…";

async function restart(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const { config } = await host.runtimeDeps();
  if (config.config.commands?.restart === false) {
    return { text: "/restart is turned off (commands.restart is false); nothing was restarted." };
  }
  if (request.chatType === "operator" && !request.scopes?.includes(RESTART_SCOPE)) {
    return { text: `/restart needs the ${RESTART_SCOPE} scope; nothing was restarted.` };
  }
  const requestRestart = host.requestRestart;
  if (!requestRestart) {
    return { text: "This gateway has no way to restart itself here; nothing was restarted." };
  }
  const refusal = host.restartRefusal?.();
  if (refusal) return { text: `Not restarting: ${refusal}; nothing was restarted.` };
  const who = `${request.channel} ${request.senderId}`;
  return { text: RESTARTING_TEXT, afterReply: () => requestRestart(`/restart from ${who}`) };
}

/** The /restart definition. */
export const restartCommands: CommandDefinition[] = [
  {
    name: "restart",
    aliases: [],
    description: "restart the gateway (commands.restart)",
    changesState: true,
    run: restart,
  },
];
