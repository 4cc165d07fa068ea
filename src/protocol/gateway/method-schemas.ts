// Params of every method Pincer serves (closed objects, names and bounds as OpenClaw's) and a few
// result shapes; the hello-ok payload is in hello-schema.ts (re-exported). METHOD_PARAMS below is
// the list of method names: each has a method object in src/gateway/methods/ (a drift test checks).
import { type Static, type TSchema, Type } from "typebox";
import { AGENTS_FILES_PARAMS, AGENTS_FILES_RESULTS } from "./agents-files.js";
import { AgentsRouteParamsSchema } from "./agents-route.js";
import { CRON_METHOD_PARAMS } from "./cron.js";
import { DEVICE_METHOD_PARAMS } from "./devices.js";
import { EXEC_APPROVAL_METHOD_PARAMS } from "./exec-approvals.js";
import { NODE_METHOD_PARAMS } from "./nodes.js";
import {
  SESSION_ELEVATED_LEVELS,
  SESSION_QUEUE_MODES,
  SESSION_REASONING_LEVELS,
  SESSION_THINKING_LEVELS,
  SESSION_VERBOSE_LEVELS,
} from "./session-levels.js";
import { SessionsListParamsSchema } from "./sessions-list.js";
import { USAGE_PARAMS, USAGE_RESULTS } from "./usage.js";

const NonEmptyString = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;
const Empty = Type.Object({}, closed);
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
/** Exactly one of `values`. */
const oneOf = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));

/** `agent`: one turn; the idempotencyKey becomes the runId. */
export const AgentParamsSchema = Type.Object(
  {
    message: NonEmptyString,
    idempotencyKey: NonEmptyString,
    agentId: Type.Optional(NonEmptyString),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    replyTo: Type.Optional(Type.String()),
    sessionId: Type.Optional(Type.String()),
    sessionKey: Type.Optional(Type.String()),
    thinking: Type.Optional(Type.String()),
    deliver: Type.Optional(Type.Boolean()),
    attachments: Type.Optional(Type.Array(Type.Unknown())),
    channel: Type.Optional(Type.String()),
    replyChannel: Type.Optional(Type.String()),
    accountId: Type.Optional(Type.String()),
    replyAccountId: Type.Optional(Type.String()),
    threadId: Type.Optional(Type.String()),
    groupId: Type.Optional(Type.String()),
    groupChannel: Type.Optional(Type.String()),
    groupSpace: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer({ minimum: 0 })),
    bestEffortDeliver: Type.Optional(Type.Boolean()),
    lane: Type.Optional(Type.String()),
    extraSystemPrompt: Type.Optional(Type.String()),
    label: Type.Optional(Type.String()),
  },
  closed,
);
/** `agent.wait`. */
export const AgentWaitParamsSchema = Type.Object(
  { runId: NonEmptyString, timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })) },
  closed,
);
/** `agent.identity.get`. */
export const AgentIdentityParamsSchema = Type.Object(
  { agentId: Type.Optional(NonEmptyString), sessionKey: Type.Optional(Type.String()) },
  closed,
);
/** `models.list`: the catalogue, with the credential each model would use for the agent (or session). */
export const ModelsListParamsSchema = Type.Object(
  { agentId: Type.Optional(NonEmptyString), sessionKey: Type.Optional(NonEmptyString) },
  closed,
);
/** `chat.send` (WebChat). */
export const ChatSendParamsSchema = Type.Object(
  {
    sessionKey: NonEmptyString,
    message: Type.String(),
    idempotencyKey: NonEmptyString,
    thinking: Type.Optional(Type.String()),
    deliver: Type.Optional(Type.Boolean()),
    attachments: Type.Optional(Type.Array(Type.Unknown())),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);
/** `chat.history`. */
export const ChatHistoryParamsSchema = Type.Object(
  {
    sessionKey: NonEmptyString,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    maxChars: Type.Optional(Type.Integer({ minimum: 1, maximum: 500_000 })),
  },
  closed,
);
/** `chat.abort`. */
export const ChatAbortParamsSchema = Type.Object(
  { sessionKey: NonEmptyString, runId: Type.Optional(NonEmptyString) },
  closed,
);
/** `sessions.preview`. */
export const SessionsPreviewParamsSchema = Type.Object(
  {
    keys: Type.Array(NonEmptyString, { minItems: 1 }),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    maxChars: Type.Optional(Type.Integer({ minimum: 20 })),
  },
  closed,
);
/** `sessions.patch`: null clears a field. */
export const SessionsPatchParamsSchema = Type.Object(
  {
    key: NonEmptyString,
    label: nullable(Type.String({ minLength: 1, maxLength: 64 })),
    thinkingLevel: nullable(oneOf(SESSION_THINKING_LEVELS)),
    verboseLevel: nullable(oneOf(SESSION_VERBOSE_LEVELS)),
    reasoningLevel: nullable(oneOf(SESSION_REASONING_LEVELS)),
    elevatedLevel: nullable(oneOf(SESSION_ELEVATED_LEVELS)),
    model: nullable(NonEmptyString),
    /** An auth profile id of the agent for the session's model's provider (tried first by runs). */
    authProfileOverride: nullable(NonEmptyString),
    sendPolicy: Type.Optional(
      Type.Union([Type.Literal("allow"), Type.Literal("deny"), Type.Null()]),
    ),
    groupActivation: Type.Optional(
      Type.Union([Type.Literal("mention"), Type.Literal("always"), Type.Null()]),
    ),
    queueMode: nullable(oneOf(SESSION_QUEUE_MODES)),
  },
  closed,
);
/** `sessions.reset`. */
export const SessionsResetParamsSchema = Type.Object({ key: NonEmptyString }, closed);
/** `sessions.delete`. */
export const SessionsDeleteParamsSchema = Type.Object(
  { key: NonEmptyString, deleteTranscript: Type.Optional(Type.Boolean()) },
  closed,
);
/** `sessions.compact`. */
export const SessionsCompactParamsSchema = Type.Object(
  { key: NonEmptyString, maxLines: Type.Optional(Type.Integer({ minimum: 1 })) },
  closed,
);
/** `config.set`: the whole file. */
export const ConfigSetParamsSchema = Type.Object(
  { raw: NonEmptyString, baseHash: Type.Optional(NonEmptyString) },
  closed,
);
/** `config.apply` / `config.patch` (patch: `raw` is a JSON5 merge patch). */
export const ConfigApplyParamsSchema = Type.Object(
  {
    raw: NonEmptyString,
    baseHash: Type.Optional(NonEmptyString),
    sessionKey: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
    restartDelayMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);
/** `logs.tail`: cursor = the next line number to read. */
export const LogsTailParamsSchema = Type.Object(
  {
    cursor: Type.Optional(Type.Integer({ minimum: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  closed,
);
/** `set-heartbeats`: turn every agent heartbeat on or off. */
export const SetHeartbeatsParamsSchema = Type.Object({ enabled: Type.Boolean() }, closed);
/** `system-event`: a presence beacon. */
export const SystemEventParamsSchema = Type.Object(
  {
    text: Type.String(),
    deviceId: Type.Optional(Type.String()),
    instanceId: Type.Optional(Type.String()),
    host: Type.Optional(Type.String()),
    ip: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    platform: Type.Optional(Type.String()),
    deviceFamily: Type.Optional(Type.String()),
    modelIdentifier: Type.Optional(Type.String()),
    lastInputSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
    reason: Type.Optional(Type.String()),
    roles: Type.Optional(Type.Array(Type.String())),
    scopes: Type.Optional(Type.Array(Type.String())),
    tags: Type.Optional(Type.Array(Type.String())),
  },
  closed,
);
/** `channels.status`. */
export const ChannelsStatusParamsSchema = Type.Object(
  { probe: Type.Optional(Type.Boolean()), timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })) },
  closed,
);
/** `send`: a message (text and/or media) to a channel target; side-effecting, so idempotent. */
export const SendParamsSchema = Type.Object(
  {
    to: NonEmptyString,
    message: Type.Optional(Type.String()),
    mediaUrl: Type.Optional(Type.String()),
    mediaUrls: Type.Optional(Type.Array(Type.String())),
    gifPlayback: Type.Optional(Type.Boolean()),
    channel: Type.Optional(Type.String()),
    accountId: Type.Optional(Type.String()),
    threadId: Type.Optional(Type.String()),
    replyToId: Type.Optional(Type.String()),
    sessionKey: Type.Optional(Type.String()),
    idempotencyKey: NonEmptyString,
  },
  closed,
);
/** `channels.pairing.list`. */
export const ChannelsPairingListParamsSchema = Type.Object(
  { channel: Type.Optional(NonEmptyString) },
  closed,
);
/** `channels.pairing.approve` / `channels.pairing.dismiss`. */
export const ChannelsPairingCodeParamsSchema = Type.Object(
  { channel: NonEmptyString, code: NonEmptyString },
  closed,
);
/** `channels.failures.retry` / `channels.failures.drop`: part ids (`<delivery>.<part>`), or every
 *  dead letter with `all`. */
export const ChannelsFailuresActionParamsSchema = Type.Object(
  {
    ids: Type.Optional(Type.Array(NonEmptyString, { minItems: 1 })),
    all: Type.Optional(Type.Boolean()),
  },
  closed,
);
/** `web.login.start`: link a WhatsApp Web account by QR (`verbose` is accepted, as OpenClaw's). */
export const WebLoginStartParamsSchema = Type.Object(
  {
    accountId: Type.Optional(NonEmptyString),
    force: Type.Optional(Type.Boolean()),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
    verbose: Type.Optional(Type.Boolean()),
  },
  closed,
);
/** `web.login.wait`: wait for the scan, a newer QR or the end of the attempt. */
export const WebLoginWaitParamsSchema = Type.Object(
  {
    accountId: Type.Optional(NonEmptyString),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);
/** `channels.logout`: unlink one account and remove its credentials. */
export const ChannelsLogoutParamsSchema = Type.Object(
  { channel: NonEmptyString, accountId: Type.Optional(NonEmptyString) },
  closed,
);
/** `sessions.list`-like methods without params. */
export const EmptyParamsSchema = Empty;
/** `health` / `status`: any params are accepted and ignored (as OpenClaw does). */
export const AnyParamsSchema = Type.Unknown();

export { type HelloOk, HelloOkSchema } from "./hello-schema.js";

/** Static type of {@link AgentParamsSchema}. */
export type AgentParams = Static<typeof AgentParamsSchema>;
/** Static type of {@link ChatSendParamsSchema}. */
export type ChatSendParams = Static<typeof ChatSendParamsSchema>;
/** Static type of {@link SessionsPatchParamsSchema}. */
export type SessionsPatchParams = Static<typeof SessionsPatchParamsSchema>;
/** Static type of {@link SendParamsSchema}. */
export type SendParams = Static<typeof SendParamsSchema>;
/** Static type of {@link SystemEventParamsSchema}. */
export type SystemEventParams = Static<typeof SystemEventParamsSchema>;

/** Method → params schema: the names of every method the gateway serves. */
export const METHOD_PARAMS = {
  health: AnyParamsSchema,
  status: AnyParamsSchema,
  agent: AgentParamsSchema,
  "agent.wait": AgentWaitParamsSchema,
  "agent.identity.get": AgentIdentityParamsSchema,
  "chat.send": ChatSendParamsSchema,
  "chat.history": ChatHistoryParamsSchema,
  "chat.abort": ChatAbortParamsSchema,
  "sessions.list": SessionsListParamsSchema,
  "sessions.preview": SessionsPreviewParamsSchema,
  "sessions.patch": SessionsPatchParamsSchema,
  "sessions.reset": SessionsResetParamsSchema,
  "sessions.delete": SessionsDeleteParamsSchema,
  "sessions.compact": SessionsCompactParamsSchema,
  "sessions.subscribe": Empty,
  "sessions.unsubscribe": Empty,
  "config.get": Empty,
  "config.set": ConfigSetParamsSchema,
  "config.apply": ConfigApplyParamsSchema,
  "config.patch": ConfigApplyParamsSchema,
  "config.schema": Empty,
  "logs.tail": LogsTailParamsSchema,
  "system-event": SystemEventParamsSchema,
  "system-presence": Empty,
  "last-heartbeat": Empty,
  "set-heartbeats": SetHeartbeatsParamsSchema,
  "channels.status": ChannelsStatusParamsSchema,
  "channels.pairing.list": ChannelsPairingListParamsSchema,
  "channels.pairing.approve": ChannelsPairingCodeParamsSchema,
  "channels.pairing.dismiss": ChannelsPairingCodeParamsSchema,
  "channels.failures.list": Empty,
  "channels.failures.retry": ChannelsFailuresActionParamsSchema,
  "channels.failures.drop": ChannelsFailuresActionParamsSchema,
  "channels.logout": ChannelsLogoutParamsSchema,
  "web.login.start": WebLoginStartParamsSchema,
  "web.login.wait": WebLoginWaitParamsSchema,
  send: SendParamsSchema,
  "agents.list": Empty,
  "agents.route": AgentsRouteParamsSchema,
  ...AGENTS_FILES_PARAMS,
  ...USAGE_PARAMS,
  "models.list": ModelsListParamsSchema,
  ...DEVICE_METHOD_PARAMS,
  ...EXEC_APPROVAL_METHOD_PARAMS,
  ...CRON_METHOD_PARAMS,
  ...NODE_METHOD_PARAMS,
} as const;

/** Name of a method the gateway serves. */
export type MethodName = keyof typeof METHOD_PARAMS;
/** Each method's validated params type, by name (what its handler receives). */
export type MethodParamsByName = {
  [N in MethodName]: Static<(typeof METHOD_PARAMS)[N]>;
};

/** `set-heartbeats` result. */
export const SetHeartbeatsResultSchema = Type.Object(
  { ok: Type.Literal(true), enabled: Type.Boolean() },
  closed,
);
/** `chat.abort` result. */
export const ChatAbortResultSchema = Type.Object(
  { ok: Type.Literal(true), aborted: Type.Boolean(), runIds: Type.Array(Type.String()) },
  closed,
);
/** `agent.identity.get` result. */
export const AgentIdentityResultSchema = Type.Object(
  {
    agentId: Type.String(),
    name: Type.String(),
    nameSource: Type.Union([
      Type.Literal("identity"),
      Type.Literal("config"),
      Type.Literal("default"),
    ]),
    avatar: Type.String(),
    emoji: Type.Optional(Type.String()),
  },
  closed,
);
/** `agents.list` result. */
export const AgentsListResultSchema = Type.Object(
  {
    defaultId: Type.String(),
    mainKey: Type.String(),
    scope: Type.String(),
    agents: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.Optional(Type.String()),
          model: Type.Optional(Type.String()),
          isDefault: Type.Boolean(),
          workspace: Type.String(),
          agentDir: Type.Optional(Type.String()),
          fallbacks: Type.Optional(Type.Array(Type.String())),
          /** Effective `sandbox.mode`, the key that sets it, and whether host tools run. */
          sandbox: Type.Optional(
            Type.Object(
              {
                mode: Type.String(),
                source: Type.Union([Type.String(), Type.Null()]),
                hostTools: Type.String(),
              },
              closed,
            ),
          ),
          /** The tool profile in force and the built-in tools it leaves allowed. */
          tools: Type.Optional(
            Type.Object({ profile: Type.String(), allowed: Type.Array(Type.String()) }, closed),
          ),
          /** The `bindings[]` routing to this agent: config index, tier, match, comment. */
          bindings: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  index: Type.Integer({ minimum: 0 }),
                  tier: Type.String(),
                  match: Type.Record(Type.String(), Type.Unknown()),
                  comment: Type.Optional(Type.String()),
                },
                closed,
              ),
            ),
          ),
        },
        closed,
      ),
    ),
  },
  closed,
);

/** Method → result schema, for the methods whose answer has one (checked by test/gateway-methods-table). */
export const METHOD_RESULTS = {
  "set-heartbeats": SetHeartbeatsResultSchema,
  "chat.abort": ChatAbortResultSchema,
  "agent.identity.get": AgentIdentityResultSchema,
  "agents.list": AgentsListResultSchema,
  ...AGENTS_FILES_RESULTS,
  ...USAGE_RESULTS,
} as const satisfies Partial<Record<MethodName, unknown>>;
/** Each declared result's type, by method name. */
export type MethodResultsByName = {
  [N in keyof typeof METHOD_RESULTS]: Static<(typeof METHOD_RESULTS)[N]>;
};
