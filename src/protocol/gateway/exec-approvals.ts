// Params of the exec approval methods, OpenClaw's names and shapes: an operator with
// operator.approvals lists the pending requests and answers one (`decision` allow-once |
// allow-always | deny). The requests themselves come from the gateway's own runs (its exec gate);
// Pincer has no node hosts, so clients do not create them (`exec.approval.request` is not served).
import { Type } from "typebox";

const closed = { additionalProperties: false } as const;

/** `exec.approval.list`: no params. */
export const ExecApprovalListParamsSchema = Type.Object({}, closed);
/** `exec.approval.resolve`: one request (its id or a unique prefix) and the answer. */
export const ExecApprovalResolveParamsSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    decision: Type.Union([
      Type.Literal("allow-once"),
      Type.Literal("allow-always"),
      Type.Literal("deny"),
    ]),
  },
  closed,
);

/** Method → params schema of the exec approval methods (spread into METHOD_PARAMS). */
export const EXEC_APPROVAL_METHOD_PARAMS = {
  "exec.approval.list": ExecApprovalListParamsSchema,
  "exec.approval.resolve": ExecApprovalResolveParamsSchema,
} as const;
