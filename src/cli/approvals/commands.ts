// The `pincer approvals` family: list the running gateway's pending exec approvals, approve one
// (`--always` also adds its executables to the allowlist) or deny one. Pending requests live in the
// gateway's memory, so every command talks to it (exec.approval.list / exec.approval.resolve).
// Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";

/** `pincer approvals`. */
export const approvalsGroup = {
  path: ["approvals"],
  description: "list, approve and deny the gateway's pending exec approvals",
} as const;

/** Options of `pincer approvals list` and `deny`. */
export const approvalsListOptions = gatewayClientOptions;
/** Options of `pincer approvals approve`. */
export const approvalsApproveOptions = {
  always: flag("allow always: add the command's executables to exec-approvals.json"),
  ...gatewayClientOptions,
};

const idArgument = {
  name: "id",
  description: "approval id (or a unique prefix), from pincer approvals list",
  required: true,
};

/** Every `pincer approvals` command. */
export const approvalsCommands = [
  defineCommand({
    path: ["approvals", "list"],
    isDefault: true,
    description: "pending exec approvals: id, agent, session, command, cwd, expiry",
    options: approvalsListOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["approvals", "approve"],
    description: "allow a pending command once (or --always); its run goes on",
    arguments: [idArgument],
    options: approvalsApproveOptions,
    run: lazyRun(() => import("./approve.js")),
  }),
  defineCommand({
    path: ["approvals", "deny"],
    description: "deny a pending command; the model is told it was denied",
    arguments: [idArgument],
    options: approvalsListOptions,
    run: lazyRun(() => import("./deny.js")),
  }),
];
