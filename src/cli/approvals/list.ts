// `pincer approvals list [--json]`: the running gateway's pending exec approvals (exec.approval.list).
import type { PendingExecApproval } from "../../runtime/approvals/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import type { approvalsListOptions } from "./commands.js";

/** Lists the pending requests (exit 0; none prints a line saying so). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof approvalsListOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target, {
    hint: "pending approvals live in the running gateway: start it with pincer gateway",
  });
  let approvals: PendingExecApproval[];
  try {
    approvals = (
      await client.request<{ approvals: PendingExecApproval[] }>("exec.approval.list", {})
    ).approvals;
  } catch (err) {
    throw requestFailure(err, "exec.approval.list");
  } finally {
    await client.close();
  }
  if (opts.json) {
    printJson(ctx, { approvals });
    return 0;
  }
  if (approvals.length === 0) {
    printLine(ctx, "No pending exec approvals.");
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, `Pending exec approvals (${approvals.length}):`);
  for (const { id, request, expiresAtMs } of approvals) {
    const session = request.sessionKey ? ` ${request.sessionKey}` : "";
    printLine(
      ctx,
      `  ${id}  agent ${request.agentId}${session}  expires ${new Date(expiresAtMs).toISOString()}`,
    );
    printLine(ctx, `      ${request.command}`);
    printLine(ctx, s.dim(`      in ${request.cwd} (${request.reason})`));
  }
  printLine(
    ctx,
    "Answer with pincer approvals approve <id> [--always] or pincer approvals deny <id>.",
  );
  return 0;
}
