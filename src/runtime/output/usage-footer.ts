// The usage footer a reply shows when its session asks for one: `tokens` is the turn's tokens in
// and out, `full` adds cache read/write, the model ref and the cost (only when the model's cost
// table prices the turn). Display only: never part of the transcript or the model's context.
import type { UsageMode } from "./display-levels.js";

/** One turn's usage, summed over its model calls. */
export interface TurnUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function dollars(cost: number): string {
  return cost >= 0.01 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
}

/** The footer line for `mode` ("Usage: 1,234 in / 56 out", …), or undefined when off. */
export function formatUsageFooter(params: {
  mode: UsageMode;
  usage: TurnUsage;
  /** `provider/model` of the model that answered. */
  modelRef?: string;
  /** The turn's cost in USD (0: the model has no cost table). */
  cost?: number;
}): string | undefined {
  const { mode, usage } = params;
  if (mode === "off") return undefined;
  const tokens = `Usage: ${integer.format(usage.input)} in / ${integer.format(usage.output)} out`;
  if (mode === "tokens") return tokens;
  const parts = [
    tokens,
    `cache ${integer.format(usage.cacheRead)} read / ${integer.format(usage.cacheWrite)} write`,
    ...(params.modelRef ? [params.modelRef] : []),
    ...(params.cost && params.cost > 0 ? [dollars(params.cost)] : []),
  ];
  return parts.join(" · ");
}
