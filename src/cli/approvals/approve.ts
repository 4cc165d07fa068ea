// `pincer approvals approve ID [--always]`: allow-once (or allow-always) on the running gateway.
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { approvalsApproveOptions } from "./commands.js";
import { resolveApproval } from "./resolve.js";

/** Approves one pending request. */
export function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof approvalsApproveOptions>,
): Promise<number> {
  const decision = opts.always ? "allow-always" : "allow-once";
  return resolveApproval({ ctx, args, opts, decision });
}
