// Shared by `pincer approvals approve` and `deny`: one exec.approval.resolve on the running gateway.
import type { ApprovalDecision } from "../../runtime/approvals/index.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import {
  connectForCli,
  type GatewayClientFlags,
  requestFailure,
  resolveGatewayTarget,
} from "../gateway-client-options.js";

/** Answers approval `args[0]` with `decision`; an unknown or already answered id exits 1. */
export async function resolveApproval(params: {
  ctx: CliContext;
  args: string[];
  opts: GatewayClientFlags;
  decision: ApprovalDecision;
}): Promise<number> {
  const { ctx, opts, decision } = params;
  const id = params.args[0]?.trim() ?? "";
  if (!id) throw new CliError("give the approval id (see pincer approvals list)", ExitCode.usage);
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target, {
    hint: "pending approvals live in the running gateway: start it with pincer gateway",
  });
  let result: { id: string; decision: string };
  try {
    result = await client.request("exec.approval.resolve", { id, decision });
  } catch (err) {
    throw requestFailure(err, "exec.approval.resolve");
  } finally {
    await client.close();
  }
  if (opts.json) printJson(ctx, result);
  else printLine(ctx, `Approval ${result.id}: ${result.decision}.`);
  return 0;
}
