// `usage.cost` / `usage.status`: what turns cost, per day, and where each agent stands against its
// budget. `usage.cost` keeps OpenClaw's params and `CostUsageSummary` result; `usage.status` keeps
// its `{ updatedAt, providers }` (provider quota windows, none known to Pincer yet) plus Pincer's
// `budgets`.
import { Type } from "typebox";

const closed = { additionalProperties: false } as const;
const DateString = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });

/** `usage.cost`: a range by dates (YYYY-MM-DD, the user's time zone), by `days`, or by `range`. */
export const UsageCostParamsSchema = Type.Object(
  {
    startDate: Type.Optional(DateString),
    endDate: Type.Optional(DateString),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660 })),
    range: Type.Optional(
      Type.Union([
        Type.Literal("7d"),
        Type.Literal("30d"),
        Type.Literal("90d"),
        Type.Literal("1y"),
        Type.Literal("all"),
      ]),
    ),
    agentId: Type.Optional(Type.String({ minLength: 1 })),
  },
  closed,
);

const TotalsSchema = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  totalTokens: Type.Number(),
  totalCost: Type.Number(),
  inputCost: Type.Number(),
  outputCost: Type.Number(),
  cacheReadCost: Type.Number(),
  cacheWriteCost: Type.Number(),
  missingCostEntries: Type.Number(),
});

/** `usage.cost` result: OpenClaw's CostUsageSummary. */
export const UsageCostResultSchema = Type.Object({
  updatedAt: Type.Number(),
  days: Type.Number(),
  daily: Type.Array(Type.Intersect([Type.Object({ date: Type.String() }), TotalsSchema])),
  totals: TotalsSchema,
});

/** `usage.status`: no params. */
export const UsageStatusParamsSchema = Type.Object({}, closed);

const LimitSchema = Type.Object({
  usd: Type.Number(),
  spentUsd: Type.Number(),
  key: Type.String(),
});

/** `usage.status` result. */
export const UsageStatusResultSchema = Type.Object({
  updatedAt: Type.Number(),
  providers: Type.Array(Type.Unknown()),
  budgets: Type.Array(
    Type.Object({
      agentId: Type.String(),
      timeZone: Type.Optional(Type.String()),
      day: Type.String(),
      month: Type.String(),
      daily: Type.Optional(LimitSchema),
      monthly: Type.Optional(LimitSchema),
      perTurnTokens: Type.Optional(Type.Object({ tokens: Type.Number(), key: Type.String() })),
      onExceed: Type.String(),
      exceeded: Type.Optional(Type.String()),
      lastBlocked: Type.Optional(Type.Object({ at: Type.Number(), limit: Type.String() })),
    }),
  ),
});

/** The methods' params, spread into METHOD_PARAMS. */
export const USAGE_PARAMS = {
  "usage.cost": UsageCostParamsSchema,
  "usage.status": UsageStatusParamsSchema,
} as const;

/** The methods' results, spread into METHOD_RESULTS. */
export const USAGE_RESULTS = {
  "usage.cost": UsageCostResultSchema,
  "usage.status": UsageStatusResultSchema,
} as const;
