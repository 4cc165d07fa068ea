// `pincer agent`: one agent turn through the gateway (or --local, embedded), streamed. Declaration
// only; `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer agent`. */
export const agentOptions = {
  local: flag("run the turn in this process, without a gateway"),
  agent: value("<id>", "agent (default: the session key's agent, else the default agent)"),
  sessionKey: value("<key>", "session key (default: the agent's main session)"),
  message: value("<text>", "the message to send", { short: "-m" }),
  timeout: value("<seconds>", "abort the run after this many seconds (default 600)"),
  url: value("<url>", "gateway URL (default ws://127.0.0.1:<gateway.port or 18789>)"),
  token: value("<token>", "gateway token (default as for gateway call)"),
  password: value("<password>", "gateway password"),
  json: flag("print the run result as JSON instead of streaming"),
};

/** `pincer agent`. */
export const agentCommands = [
  defineCommand({
    path: ["agent"],
    description: "run one agent turn through the gateway and stream the reply (--local: embedded)",
    options: agentOptions,
    run: lazyRun(() => import("./run.js")),
  }),
];
