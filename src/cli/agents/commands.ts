// The `pincer agents` family: list, add, delete, bindings, bind, unbind and route, in OpenClaw's
// shapes. Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, list, value } from "../command.js";

/** `pincer agents`. */
export const agentsGroup = {
  path: ["agents"],
  description: "list, add and inspect agents and their routing",
} as const;

/** Options of `pincer agents list`. */
export const listOptions = {
  bindings: flag("also show each agent's routing rules"),
  json: flag("print JSON"),
};
/** Options of `pincer agents add`. */
export const addOptions = {
  workspace: value("<dir>", "workspace directory (default ~/.openclaw/workspace-<id>)"),
  agentDir: value("<dir>", "agent state dir (default <stateDir>/agents/<id>/agent)"),
  model: value("<ref>", "primary model, provider/model"),
  bind: list(
    "<channel[:accountId]>",
    "route a channel (or one account of it) to the agent; repeatable",
  ),
  nonInteractive: flag("never prompt (the default: a missing name is an error)"),
  json: flag("print JSON"),
};
/** Options of `pincer agents delete`. */
export const deleteOptions = {
  force: flag("also delete the default (or the only) agent"),
  json: flag("print JSON"),
};
/** Options of `pincer agents bindings`. */
export const bindingsOptions = {
  agent: value("<id>", "only this agent's bindings"),
  json: flag("print JSON"),
};
/** Options of `pincer agents bind`. */
export const bindOptions = {
  agent: value("<id>", "agent (default: the default agent)"),
  bind: list("<channel[:accountId]>", "channel or channel:accountId; repeatable"),
  json: flag("print JSON"),
};
/** Options of `pincer agents unbind`. */
export const unbindOptions = {
  agent: value("<id>", "agent (default: the default agent)"),
  bind: list("<channel[:accountId]>", "channel or channel:accountId; repeatable"),
  all: flag("every binding of the agent"),
  json: flag("print JSON"),
};
/** Options of `pincer agents route`. */
export const routeOptions = {
  channel: value("<channel>", "channel, e.g. whatsapp, telegram, discord, slack"),
  account: value("<id>", "channel account id (default: default)"),
  peer: value("<kind:id>", "peer, kind direct|dm|group|channel, e.g. group:-1001234"),
  parentPeer: value("<kind:id>", "parent peer of a thread or topic"),
  guild: value("<id>", "Discord guild id"),
  team: value("<id>", "Slack team id"),
  roles: value("<r1,r2>", "member role ids (Discord)"),
  stdin: flag("read JSONL inputs from stdin, write one JSON route per line"),
  json: flag("print JSON"),
};

/** Every `pincer agents` command, in help order. */
export const agentsCommands = [
  defineCommand({
    path: ["agents", "list"],
    description: "list agents with workspace, agentDir, model and default mark",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["agents", "add"],
    description: "add an isolated agent: workspace, agentDir, sessions dir, config entry, bindings",
    arguments: [{ name: "name", description: "agent id (lowercase letters, digits, - and _)" }],
    options: addOptions,
    run: lazyRun(() => import("./add.js")),
  }),
  defineCommand({
    path: ["agents", "delete"],
    description:
      "remove an agent and its bindings from the config (its workspace and sessions stay on disk)",
    arguments: [{ name: "id", description: "agent id", required: true }],
    options: deleteOptions,
    run: lazyRun(() => import("./delete.js")),
  }),
  defineCommand({
    path: ["agents", "bindings"],
    description: "list the routing bindings (bindings[]), optionally of one agent",
    options: bindingsOptions,
    run: lazyRun(() => import("./bindings.js")),
  }),
  defineCommand({
    path: ["agents", "bind"],
    description: "route a channel (or one account of it) to an agent",
    options: bindOptions,
    run: lazyRun(() => import("./bind.js")),
  }),
  defineCommand({
    path: ["agents", "unbind"],
    description: "remove an agent's channel bindings (--bind …) or all of them (--all)",
    options: unbindOptions,
    run: lazyRun(() => import("./unbind.js")),
  }),
  defineCommand({
    path: ["agents", "route"],
    description: "show which agent and session an inbound message would reach, and why",
    options: routeOptions,
    run: lazyRun(() => import("./route.js")),
  }),
];
