// `agents.route`: which agent and session key an inbound message would reach and why, tier by tier —
// `pincer agents route` over the gateway (OpenClaw has no such method; the name follows its family).
import { Type } from "typebox";

const closed = { additionalProperties: false } as const;
const NonEmptyString = Type.String({ minLength: 1 });

/** A peer: kind direct, dm, group or channel, and its id. */
const RoutePeerSchema = Type.Object(
  {
    kind: Type.Union([
      Type.Literal("direct"),
      Type.Literal("dm"),
      Type.Literal("group"),
      Type.Literal("channel"),
    ]),
    id: NonEmptyString,
  },
  closed,
);

/** `agents.route`: the message's channel, account, peer, parent peer, guild, team and member roles. */
export const AgentsRouteParamsSchema = Type.Object(
  {
    channel: NonEmptyString,
    accountId: Type.Optional(NonEmptyString),
    peer: Type.Optional(RoutePeerSchema),
    parentPeer: Type.Optional(RoutePeerSchema),
    guildId: Type.Optional(NonEmptyString),
    teamId: Type.Optional(NonEmptyString),
    memberRoleIds: Type.Optional(Type.Array(NonEmptyString)),
  },
  closed,
);
