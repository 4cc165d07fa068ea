// `pincer approvals deny ID`: deny on the running gateway (the model gets a "denied" tool result).
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { approvalsListOptions } from "./commands.js";
import { resolveApproval } from "./resolve.js";

/** Denies one pending request. */
export function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof approvalsListOptions>,
): Promise<number> {
  return resolveApproval({ ctx, args, opts, decision: "deny" });
}
