// Usage and budgets: the per-agent usage log, its summaries, and the budget ledger and gate.
export * from "./budget.js";
export * from "./budget-decision.js";
export * from "./budget-gate.js";
export * from "./budget-text.js";
export * from "./calendar.js";
export * from "./usage-log.js";
export * from "./usage-record.js";
export * from "./usage-summary.js";
