// Params of the node methods, OpenClaw's names and shapes: operators list and describe node hosts
// (`role: "node"` connections and paired node devices) and invoke a command on one (`node.invoke`,
// answered through the `node.invoke.request` event and the node's `node.invoke.result`); a node
// reports events with `node.event` (the two node-role methods: the only ones a node may call).
import { Type } from "typebox";

const NonEmptyString = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;

/** `node.list`: no params. */
export const NodeListParamsSchema = Type.Object({}, closed);
/** `node.describe`: one node by id (its device id). */
export const NodeDescribeParamsSchema = Type.Object({ nodeId: NonEmptyString }, closed);
/** `node.invoke`: run one declared command on a connected node, bounded by `timeoutMs`. */
export const NodeInvokeParamsSchema = Type.Object(
  {
    nodeId: NonEmptyString,
    command: NonEmptyString,
    params: Type.Optional(Type.Unknown()),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
    idempotencyKey: NonEmptyString,
  },
  closed,
);
/** `node.invoke.result` (node role): the answer to one `node.invoke.request`. */
export const NodeInvokeResultParamsSchema = Type.Object(
  {
    id: NonEmptyString,
    nodeId: NonEmptyString,
    ok: Type.Boolean(),
    payload: Type.Optional(Type.Unknown()),
    payloadJSON: Type.Optional(Type.String()),
    error: Type.Optional(
      Type.Object(
        { code: Type.Optional(NonEmptyString), message: Type.Optional(NonEmptyString) },
        closed,
      ),
    ),
  },
  closed,
);
/** `node.event` (node role): an event the node reports (logged; no event is acted on yet). */
export const NodeEventParamsSchema = Type.Object(
  {
    event: NonEmptyString,
    payload: Type.Optional(Type.Unknown()),
    payloadJSON: Type.Optional(Type.String()),
  },
  closed,
);

/** The `node.invoke.request` event payload a node receives (OpenClaw's shape). */
export const NodeInvokeRequestEventSchema = Type.Object(
  {
    id: NonEmptyString,
    nodeId: NonEmptyString,
    command: NonEmptyString,
    paramsJSON: Type.Optional(Type.String()),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
    idempotencyKey: Type.Optional(NonEmptyString),
  },
  closed,
);

/** Method → params schema of the node methods (spread into METHOD_PARAMS). */
export const NODE_METHOD_PARAMS = {
  "node.list": NodeListParamsSchema,
  "node.describe": NodeDescribeParamsSchema,
  "node.invoke": NodeInvokeParamsSchema,
  "node.invoke.result": NodeInvokeResultParamsSchema,
  "node.event": NodeEventParamsSchema,
} as const;
