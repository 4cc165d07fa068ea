// `bindings[]`: route inbound traffic (channel, account, peer, guild, team, roles) to an agent.
import { type Static, Type } from "typebox";
import { acceptedForCompat } from "./common.js";
import { DmScopeSchema, GroupScopeSchema } from "./session.js";

/** Peer kind of a binding; `dm` is the legacy spelling of `direct`. */
export const PeerKindSchema = Type.Union(
  [Type.Literal("direct"), Type.Literal("dm"), Type.Literal("group"), Type.Literal("channel")],
  { description: "Peer kind: direct (dm: legacy alias), group or channel." },
);
/** Static type of {@link PeerKindSchema}. */
export type PeerKind = Static<typeof PeerKindSchema>;

/** The exact peer a binding matches; `id: "*"` matches any peer of that kind. */
export const BindingPeerSchema = Type.Object(
  {
    kind: PeerKindSchema,
    id: Type.Union([Type.String({ minLength: 1 }), Type.Number()], {
      description: 'Peer id (E.164, chat id, group JID, ...; "*" = any peer of this kind).',
    }),
  },
  { additionalProperties: false, description: "Peer constraint { kind, id }." },
);
/** Static type of {@link BindingPeerSchema}. */
export type BindingPeer = Static<typeof BindingPeerSchema>;

/** What inbound traffic a binding applies to; every constraint given must match. */
export const BindingMatchSchema = Type.Object(
  {
    channel: Type.String({ minLength: 1, description: "Channel id (whatsapp, telegram, ...)." }),
    accountId: Type.Optional(
      Type.String({ description: 'Channel account id; absent = default account, "*" = any.' }),
    ),
    peer: Type.Optional(BindingPeerSchema),
    guildId: Type.Optional(
      Type.Union([Type.String(), Type.Number()], { description: "Discord guild id." }),
    ),
    teamId: Type.Optional(
      Type.Union([Type.String(), Type.Number()], { description: "Slack team id." }),
    ),
    roles: Type.Optional(
      Type.Array(Type.String(), { description: "Member role ids; any one must be present." }),
    ),
  },
  { additionalProperties: false, description: "Binding match constraints." },
);
/** Static type of {@link BindingMatchSchema}. */
export type BindingMatch = Static<typeof BindingMatchSchema>;

/** Session scoping overrides applied to traffic routed by a binding. */
export const BindingSessionSchema = Type.Object(
  {
    dmScope: Type.Optional(DmScopeSchema),
    groupScope: Type.Optional(GroupScopeSchema),
  },
  { additionalProperties: false, description: "Session scope overrides for this binding." },
);
/** Static type of {@link BindingSessionSchema}. */
export type BindingSession = Static<typeof BindingSessionSchema>;

/** One routing rule: inbound traffic matching `match` goes to `agentId`. */
export const BindingSchema = Type.Object(
  {
    type: Type.Optional(
      Type.Union(
        [
          Type.Literal("route"),
          acceptedForCompat(Type.Literal("acp"), "no issue yet: ACP bindings"),
        ],
        {
          description: 'Binding kind: "route" (default) or "acp".',
        },
      ),
    ),
    agentId: Type.String({ minLength: 1, description: "Agent that owns matching traffic." }),
    comment: Type.Optional(Type.String({ description: "Free-form note." })),
    match: BindingMatchSchema,
    session: Type.Optional(BindingSessionSchema),
    acp: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), {
          description: "ACP binding settings (type: acp).",
        }),
        "no issue yet: ACP bindings",
      ),
    ),
  },
  { additionalProperties: false, description: "Routing binding." },
);
/** Static type of {@link BindingSchema}. */
export type Binding = Static<typeof BindingSchema>;

/** `bindings`: ordered routing rules (most specific tier wins, then config order). */
export const BindingsSchema = Type.Array(BindingSchema, {
  description: "Routing bindings, most specific first.",
});
/** Static type of {@link BindingsSchema}. */
export type Bindings = Static<typeof BindingsSchema>;
