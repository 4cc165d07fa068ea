// The hello-ok payload: what a `connect` answers (protocol, server, features with the method and
// event lists and connect capabilities, the snapshot, the granted auth, the connection policy).
import { type Static, Type } from "typebox";
import { StateVersionSchema } from "./schema.js";

const closed = { additionalProperties: false } as const;

/** hello-ok: the connect response payload. */
export const HelloOkSchema = Type.Object(
  {
    type: Type.Literal("hello-ok"),
    protocol: Type.Integer({ minimum: 1 }),
    server: Type.Object(
      { version: Type.String(), connId: Type.String(), bootId: Type.String() },
      closed,
    ),
    features: Type.Object(
      {
        methods: Type.Array(Type.String()),
        events: Type.Array(Type.String()),
        /** Connect capabilities the server understands (`caps` of the connect params). */
        capabilities: Type.Optional(Type.Array(Type.String())),
      },
      closed,
    ),
    snapshot: Type.Object(
      {
        presence: Type.Array(Type.Unknown()),
        health: Type.Unknown(),
        stateVersion: StateVersionSchema,
        uptimeMs: Type.Integer({ minimum: 0 }),
        sessionDefaults: Type.Object(
          {
            defaultAgentId: Type.String(),
            mainKey: Type.String(),
            mainSessionKey: Type.String(),
            scope: Type.String(),
          },
          closed,
        ),
        configPath: Type.Optional(Type.String()),
        stateDir: Type.Optional(Type.String()),
        authMode: Type.Optional(Type.String()),
      },
      closed,
    ),
    auth: Type.Object(
      {
        method: Type.String(),
        role: Type.String(),
        scopes: Type.Array(Type.String()),
        deviceToken: Type.Optional(Type.String()),
        issuedAtMs: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      closed,
    ),
    policy: Type.Object(
      {
        maxPayload: Type.Integer(),
        maxBufferedBytes: Type.Integer(),
        tickIntervalMs: Type.Integer(),
      },
      closed,
    ),
  },
  closed,
);
/** Static type of {@link HelloOkSchema}. */
export type HelloOk = Static<typeof HelloOkSchema>;
