// `agents.defaults.budget` / `agents.list[].budget`: spending limits the gateway enforces before each
// model call (Pincer's own key; OpenClaw has none). An agent's own budget replaces the defaults' one
// field by field.
import { type Static, Type } from "typebox";

/** What happens once a limit is reached: refuse the turn, only warn, or answer with another model. */
export const BudgetOnExceedSchema = Type.Union(
  [
    Type.Literal("block"),
    Type.Literal("warn"),
    Type.String({ pattern: "^fallback:\\S+$", description: "fallback:<provider/model>" }),
  ],
  { description: 'At the limit: "block" (default), "warn", or "fallback:<provider/model>".' },
);

/** Spending limits of one agent, in US dollars of the model's cost table, and tokens per turn. */
export const BudgetConfigSchema = Type.Object(
  {
    daily: Type.Optional(
      Type.Number({ minimum: 0, description: "USD per calendar day (userTimezone)." }),
    ),
    monthly: Type.Optional(
      Type.Number({ minimum: 0, description: "USD per calendar month (userTimezone)." }),
    ),
    perTurnTokens: Type.Optional(
      Type.Integer({ minimum: 1, description: "Tokens (in + out) one turn may use." }),
    ),
    onExceed: Type.Optional(BudgetOnExceedSchema),
  },
  { additionalProperties: false, description: "Spending budget enforced before each model call." },
);
/** Static type of {@link BudgetConfigSchema}. */
export type BudgetConfig = Static<typeof BudgetConfigSchema>;
