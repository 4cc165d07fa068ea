// The gateway wire protocol as TypeBox schemas (closed objects): frames, the connect handshake and
// the error shape (method params, results and hello-ok: method-schemas.ts). Source of truth for
// schema.generated.ts, which the server validates against without loading TypeBox at start-up.
import { type Static, type TLiteral, type TUnion, Type } from "typebox";

const NonEmptyString = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;
/** One TLiteral per value of a tuple, so Static<> of the union is the string union (not never). */
type Literals<T extends readonly string[]> = T extends readonly [
  infer Head extends string,
  ...infer Rest extends readonly string[],
]
  ? [TLiteral<Head>, ...Literals<Rest>]
  : [];
const literals = <const T extends readonly string[]>(values: T): TUnion<Literals<T>> =>
  Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<Literals<T>>;

/** Client ids a connect may carry (OpenClaw's known clients; any other id is refused). */
export const CLIENT_IDS = [
  "webchat-ui",
  "openclaw-control-ui",
  "openclaw-browser-copilot",
  "openclaw-tui",
  "webchat",
  "cli",
  "gateway-client",
  "openclaw-macos",
  "openclaw-linux",
  "openclaw-ios",
  "openclaw-watchos",
  "openclaw-android",
  "node-host",
  "openclaw-worker",
  "test",
  "fingerprint",
  "openclaw-probe",
] as const;
/** Client modes. */
export const CLIENT_MODES = [
  "webchat",
  "cli",
  "ui",
  "backend",
  "node",
  "worker",
  "probe",
  "test",
] as const;
/** Connection roles. */
export const ROLES = ["operator", "node"] as const;
/** Operator scopes. */
export const OPERATOR_SCOPES = [
  "operator.read",
  "operator.write",
  "operator.admin",
  "operator.approvals",
  "operator.questions",
  "operator.pairing",
  "operator.talk",
  "operator.talk.secrets",
] as const;

/** Error shape of a failed response. */
export const ErrorShapeSchema = Type.Object(
  {
    code: NonEmptyString,
    message: Type.String(),
    details: Type.Optional(Type.Unknown()),
    retryable: Type.Optional(Type.Boolean()),
    retryAfterMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);
/** `{type:"req"}` frame. */
export const RequestFrameSchema = Type.Object(
  {
    type: Type.Literal("req"),
    id: NonEmptyString,
    method: NonEmptyString,
    params: Type.Optional(Type.Unknown()),
    traceparent: Type.Optional(Type.String({ maxLength: 128 })),
    expectedProfileId: Type.Optional(Type.String()),
  },
  closed,
);
/** `{type:"res"}` frame. */
export const ResponseFrameSchema = Type.Object(
  {
    type: Type.Literal("res"),
    id: NonEmptyString,
    ok: Type.Boolean(),
    payload: Type.Optional(Type.Unknown()),
    error: Type.Optional(ErrorShapeSchema),
  },
  closed,
);
/** `stateVersion` of event frames and snapshots. */
export const StateVersionSchema = Type.Object(
  { presence: Type.Integer({ minimum: 0 }), health: Type.Integer({ minimum: 0 }) },
  closed,
);
/** `{type:"event"}` frame. */
export const EventFrameSchema = Type.Object(
  {
    type: Type.Literal("event"),
    event: NonEmptyString,
    payload: Type.Optional(Type.Unknown()),
    seq: Type.Optional(Type.Integer({ minimum: 0 })),
    stateVersion: Type.Optional(StateVersionSchema),
  },
  closed,
);

/** `connect` params (OpenClaw's ConnectParamsSchema). */
export const ConnectParamsSchema = Type.Object(
  {
    minProtocol: Type.Integer({ minimum: 1 }),
    maxProtocol: Type.Integer({ minimum: 1 }),
    client: Type.Object(
      {
        id: literals(CLIENT_IDS),
        displayName: Type.Optional(Type.String()),
        version: NonEmptyString,
        buildId: Type.Optional(Type.String()),
        platform: NonEmptyString,
        deviceFamily: Type.Optional(Type.String()),
        modelIdentifier: Type.Optional(Type.String()),
        timeZone: Type.Optional(Type.String()),
        mode: literals(CLIENT_MODES),
        instanceId: Type.Optional(NonEmptyString),
      },
      closed,
    ),
    caps: Type.Optional(Type.Array(Type.String())),
    commands: Type.Optional(Type.Array(Type.String())),
    permissions: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    pathEnv: Type.Optional(Type.String()),
    role: Type.Optional(literals(ROLES)),
    scopes: Type.Optional(Type.Array(Type.String())),
    modelCatalog: Type.Optional(Type.Unknown()),
    device: Type.Optional(
      Type.Object(
        {
          id: NonEmptyString,
          publicKey: NonEmptyString,
          signature: NonEmptyString,
          signedAt: Type.Integer({ minimum: 0 }),
          nonce: Type.Optional(NonEmptyString),
        },
        closed,
      ),
    ),
    auth: Type.Optional(
      Type.Object(
        {
          token: Type.Optional(Type.String()),
          bootstrapToken: Type.Optional(Type.String()),
          deviceToken: Type.Optional(Type.String()),
          password: Type.Optional(Type.String()),
          approvalRuntimeToken: Type.Optional(Type.String()),
          agentRuntimeIdentityToken: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    locale: Type.Optional(Type.String()),
    userAgent: Type.Optional(Type.String()),
    computerUse: Type.Optional(Type.Unknown()),
    workerRuns: Type.Optional(Type.Unknown()),
  },
  closed,
);
/** Static type of {@link ConnectParamsSchema}. */
export type ConnectParams = Static<typeof ConnectParamsSchema>;
/** Static type of {@link ErrorShapeSchema}. */
export type ErrorShape = Static<typeof ErrorShapeSchema>;
/** Static type of {@link RequestFrameSchema}. */
export type RequestFrame = Static<typeof RequestFrameSchema>;
