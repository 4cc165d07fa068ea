// The cron methods' params and the job shape, OpenClaw's names and bounds: `cron.list`, `cron.status`,
// `cron.add`, `cron.update`, `cron.remove`, `cron.run`, `cron.runs`. A job is what
// `<stateDir>/cron/jobs.json` holds ({version: 1, jobs}); its schedule is `at` (ISO), `every` (ms,
// optional anchor) or `cron` (5/6-field expression, optional IANA zone and stagger).
import { type Static, Type } from "typebox";

const NonEmptyString = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;
// A job id names a file under cron/runs/: no path separators.
const JobId = Type.String({ minLength: 1, pattern: "^[^/\\\\]+$" });

/** When a job runs: one-shot `at`, fixed interval `every`, or a `cron` expression. */
export const CronScheduleSchema = Type.Union([
  Type.Object({ kind: Type.Literal("at"), at: NonEmptyString }, closed),
  Type.Object(
    {
      kind: Type.Literal("every"),
      everyMs: Type.Integer({ minimum: 1 }),
      anchorMs: Type.Optional(Type.Integer({ minimum: 0 })),
    },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal("cron"),
      expr: NonEmptyString,
      tz: Type.Optional(Type.String()),
      staggerMs: Type.Optional(Type.Integer({ minimum: 0 })),
    },
    closed,
  ),
]);

const agentTurnFields = {
  model: Type.Optional(Type.String()),
  thinking: Type.Optional(Type.String()),
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
};

/** What a job does: a system event into the main session, or a turn in its isolated session. */
export const CronPayloadSchema = Type.Union([
  Type.Object({ kind: Type.Literal("systemEvent"), text: NonEmptyString }, closed),
  Type.Object(
    { kind: Type.Literal("agentTurn"), message: NonEmptyString, ...agentTurnFields },
    closed,
  ),
]);

/** A payload change (`cron.update`): fields of the same kind. */
export const CronPayloadPatchSchema = Type.Union([
  Type.Object({ kind: Type.Literal("systemEvent"), text: Type.Optional(NonEmptyString) }, closed),
  Type.Object(
    { kind: Type.Literal("agentTurn"), message: Type.Optional(NonEmptyString), ...agentTurnFields },
    closed,
  ),
]);

const deliveryFields = {
  channel: Type.Optional(Type.Union([Type.Literal("last"), NonEmptyString])),
  to: Type.Optional(Type.String()),
  accountId: Type.Optional(NonEmptyString),
  bestEffort: Type.Optional(Type.Boolean()),
};
const DeliveryMode = Type.Union([
  Type.Literal("none"),
  Type.Literal("announce"),
  Type.Literal("webhook"),
]);

/** Where a job's result goes: an isolated job's reply announced to channel + to (or `last`), or
 *  nowhere; or (`webhook`, any job) its finished run POSTed as JSON to the http(s) URL in `to`. */
export const CronDeliverySchema = Type.Object({ mode: DeliveryMode, ...deliveryFields }, closed);
/** A delivery change. */
export const CronDeliveryPatchSchema = Type.Object(
  { mode: Type.Optional(DeliveryMode), ...deliveryFields },
  closed,
);

const RunStatus = Type.Union([Type.Literal("ok"), Type.Literal("error"), Type.Literal("skipped")]);
const DeliveryStatus = Type.Union([
  Type.Literal("delivered"),
  Type.Literal("not-delivered"),
  Type.Literal("unknown"),
  Type.Literal("not-requested"),
]);
const SessionTarget = Type.Union([Type.Literal("main"), Type.Literal("isolated")]);
const WakeMode = Type.Union([Type.Literal("next-heartbeat"), Type.Literal("now")]);
const SortDir = Type.Union([Type.Literal("asc"), Type.Literal("desc")]);

/** A job's run state (kept in jobs.json). */
export const CronJobStateSchema = Type.Object(
  {
    nextRunAtMs: Type.Optional(Type.Integer({ minimum: 0 })),
    runningAtMs: Type.Optional(Type.Integer({ minimum: 0 })),
    lastRunAtMs: Type.Optional(Type.Integer({ minimum: 0 })),
    lastRunStatus: Type.Optional(RunStatus),
    lastStatus: Type.Optional(RunStatus),
    lastError: Type.Optional(Type.String()),
    lastDurationMs: Type.Optional(Type.Integer({ minimum: 0 })),
    consecutiveErrors: Type.Optional(Type.Integer({ minimum: 0 })),
    lastDelivered: Type.Optional(Type.Boolean()),
    lastDeliveryStatus: Type.Optional(DeliveryStatus),
    lastDeliveryError: Type.Optional(Type.String()),
  },
  closed,
);

const commonFields = {
  agentId: Type.Optional(Type.Union([NonEmptyString, Type.Null()])),
  sessionKey: Type.Optional(Type.Union([NonEmptyString, Type.Null()])),
  description: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  deleteAfterRun: Type.Optional(Type.Boolean()),
};

/** `cron.add`: a new job (the id, timestamps and state are the gateway's). */
export const CronAddParamsSchema = Type.Object(
  {
    name: NonEmptyString,
    ...commonFields,
    schedule: CronScheduleSchema,
    sessionTarget: SessionTarget,
    wakeMode: Type.Optional(WakeMode),
    payload: CronPayloadSchema,
    delivery: Type.Optional(CronDeliverySchema),
  },
  closed,
);

/** A job change (`cron.update` `patch`); `agentId: null` clears the agent binding. */
export const CronJobPatchSchema = Type.Object(
  {
    name: Type.Optional(NonEmptyString),
    ...commonFields,
    schedule: Type.Optional(CronScheduleSchema),
    sessionTarget: Type.Optional(SessionTarget),
    wakeMode: Type.Optional(WakeMode),
    payload: Type.Optional(CronPayloadPatchSchema),
    delivery: Type.Optional(CronDeliveryPatchSchema),
  },
  closed,
);

const idFields = { id: Type.Optional(JobId), jobId: Type.Optional(JobId) };

/** `cron.list`: jobs, paged, filtered and sorted. */
export const CronListParamsSchema = Type.Object(
  {
    includeDisabled: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    query: Type.Optional(Type.String()),
    enabled: Type.Optional(
      Type.Union([Type.Literal("all"), Type.Literal("enabled"), Type.Literal("disabled")]),
    ),
    sortBy: Type.Optional(
      Type.Union([Type.Literal("nextRunAtMs"), Type.Literal("updatedAtMs"), Type.Literal("name")]),
    ),
    sortDir: Type.Optional(SortDir),
  },
  closed,
);

/** `cron.runs`: a job's run history (or every job's with `scope: "all"`), newest first by default. */
export const CronRunsParamsSchema = Type.Object(
  {
    scope: Type.Optional(Type.Union([Type.Literal("job"), Type.Literal("all")])),
    ...idFields,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    statuses: Type.Optional(Type.Array(RunStatus, { minItems: 1, maxItems: 3 })),
    status: Type.Optional(
      Type.Union([
        Type.Literal("all"),
        Type.Literal("ok"),
        Type.Literal("error"),
        Type.Literal("skipped"),
      ]),
    ),
    query: Type.Optional(Type.String()),
    sortDir: Type.Optional(SortDir),
  },
  closed,
);

/** Method → params schema of the cron methods (spread into METHOD_PARAMS). */
export const CRON_METHOD_PARAMS = {
  "cron.list": CronListParamsSchema,
  "cron.status": Type.Object({}, closed),
  "cron.add": CronAddParamsSchema,
  "cron.update": Type.Object({ ...idFields, patch: CronJobPatchSchema }, closed),
  "cron.remove": Type.Object(idFields, closed),
  "cron.run": Type.Object(
    { ...idFields, mode: Type.Optional(Type.Union([Type.Literal("due"), Type.Literal("force")])) },
    closed,
  ),
  "cron.runs": CronRunsParamsSchema,
} as const;

/** Static type of {@link CronScheduleSchema}. */
export type CronSchedule = Static<typeof CronScheduleSchema>;
/** Static type of {@link CronPayloadSchema}. */
export type CronPayload = Static<typeof CronPayloadSchema>;
/** Static type of {@link CronPayloadPatchSchema}. */
export type CronPayloadPatch = Static<typeof CronPayloadPatchSchema>;
/** Static type of {@link CronDeliverySchema}. */
export type CronDelivery = Static<typeof CronDeliverySchema>;
/** Static type of {@link CronDeliveryPatchSchema}. */
export type CronDeliveryPatch = Static<typeof CronDeliveryPatchSchema>;
/** Static type of {@link CronJobStateSchema}. */
export type CronJobState = Static<typeof CronJobStateSchema>;
/** Static type of {@link CronAddParamsSchema}. */
export type CronAddParams = Static<typeof CronAddParamsSchema>;
/** Static type of {@link CronJobPatchSchema}. */
export type CronJobPatch = Static<typeof CronJobPatchSchema>;
/** Static type of {@link CronListParamsSchema}. */
export type CronListParams = Static<typeof CronListParamsSchema>;
/** Static type of {@link CronRunsParamsSchema}. */
export type CronRunsParams = Static<typeof CronRunsParamsSchema>;
