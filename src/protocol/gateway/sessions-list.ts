// `sessions.list` params: OpenClaw's names (limit, activeMinutes, includeGlobal, includeUnknown,
// label, agentId, search) plus paging for big stores: `offset`, `sort` and `order` (the answer then
// carries `total`, the count of every matching row, so a client pages without loading them all).
import { type Static, Type } from "typebox";

const closed = { additionalProperties: false } as const;

/** `sessions.list`: filters, then one page (`offset`, `limit`) of the rows in `sort`/`order`. */
export const SessionsListParamsSchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    activeMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
    includeGlobal: Type.Optional(Type.Boolean()),
    includeUnknown: Type.Optional(Type.Boolean()),
    label: Type.Optional(Type.String()),
    agentId: Type.Optional(Type.String({ minLength: 1 })),
    search: Type.Optional(Type.String()),
    /** Rows to skip before the page (after filtering and sorting). */
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    sort: Type.Optional(
      Type.Union([
        Type.Literal("updatedAt"),
        Type.Literal("key"),
        Type.Literal("channel"),
        Type.Literal("tokens"),
        Type.Literal("model"),
      ]),
    ),
    /** `desc` by default (newest, largest, Z first). */
    order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
  },
  closed,
);

/** Static type of {@link SessionsListParamsSchema}. */
export type SessionsListParams = Static<typeof SessionsListParamsSchema>;
/** A column `sessions.list` sorts by; `updatedAt` (last activity) is the default. */
export type SessionsSortKey = NonNullable<SessionsListParams["sort"]>;
