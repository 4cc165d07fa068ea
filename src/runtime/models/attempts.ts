// The failover plan of one run: every usable credential of the primary, then of each fallback,
// and the step after a failure (another profile, the next model, or stop), each switch described
// as an explicit `failover` event for the run result and the transcript.

import type { ModelPolicy } from "../../protocol/config/index.js";
import { type FailureReason, failoverAction } from "./classify.js";
import type { CredentialCandidate } from "./credentials.js";
import { checkModelAgainstPolicy } from "./policy.js";
import { formatModelRef, type ModelRef } from "./refs.js";

/** One try: a model with one credential. `policy` is set when the model breaks the agent's policy. */
export interface Attempt {
  ref: ModelRef;
  model: string;
  role: "primary" | "fallback";
  /** Position of the model in the chain (0 = primary). */
  modelIndex: number;
  credential: CredentialCandidate;
  policy?: { reason: string; onMismatch: "fail" | "warn" };
}

/** A model of the chain with no usable credential (it gets no attempt). */
export interface UncoveredModel {
  ref: ModelRef;
  model: string;
  modelIndex: number;
}

/** The ordered attempts and the models left out for want of a credential. */
export interface AttemptPlan {
  attempts: Attempt[];
  uncovered: UncoveredModel[];
}

/** Inputs of {@link planAttempts}. */
export interface PlanAttemptsInput {
  chain: { primary?: ModelRef; fallbacks: ModelRef[] };
  credentialsFor: (ref: ModelRef) => CredentialCandidate[];
  policy?: ModelPolicy;
}

/** All usable credentials of the primary, then of each fallback, in order. */
export function planAttempts(input: PlanAttemptsInput): AttemptPlan {
  const refs = [...(input.chain.primary ? [input.chain.primary] : []), ...input.chain.fallbacks];
  const plan: AttemptPlan = { attempts: [], uncovered: [] };
  refs.forEach((ref, modelIndex) => {
    const model = formatModelRef(ref);
    const role = modelIndex === 0 && input.chain.primary ? "primary" : "fallback";
    const check = checkModelAgainstPolicy(ref, input.policy);
    const policy = check.ok ? undefined : { reason: check.reason, onMismatch: check.onMismatch };
    const credentials = input.credentialsFor(ref);
    if (credentials.length === 0) plan.uncovered.push({ ref, model, modelIndex });
    for (const credential of credentials) {
      plan.attempts.push({
        ref,
        model,
        role,
        modelIndex,
        credential,
        ...(policy ? { policy } : {}),
      });
    }
  });
  return plan;
}

/** A model + credential as shown in events (never the secret). */
export interface AttemptLabel {
  model: string;
  credential: string;
}

/** An explicit switch: to another profile of the same model, or to another model. */
export interface FailoverEvent {
  type: "failover";
  from: AttemptLabel;
  to: AttemptLabel;
  reason: FailureReason;
  /** The failure named for users (e.g. which host was unreachable and why). */
  detail?: string;
  scope: "profile" | "model";
  /** Models passed over because no credential was usable. */
  skipped?: string[];
  /** Set when the new model breaks a `warn` model policy. */
  warning?: string;
}

/** What to do next: run attempt `index` (with the event that explains the switch) or stop. */
export type NextStep =
  | { kind: "attempt"; index: number; event?: FailoverEvent }
  | {
      kind: "stop";
      reason: FailureReason | "exhausted" | "policy" | "no_credentials";
      message: string;
    };

function labelOf(attempt: Attempt): AttemptLabel {
  return { model: attempt.model, credential: attempt.credential.id };
}

function policyStop(attempt: Attempt): NextStep | undefined {
  if (attempt.policy?.onMismatch !== "fail") return undefined;
  return { kind: "stop", reason: "policy", message: `refused: ${attempt.policy.reason}` };
}

/** The first step of a run: attempt 0, unless there is none or it breaks a `fail` policy. */
export function firstAttempt(plan: AttemptPlan): NextStep {
  const first = plan.attempts[0];
  if (!first) {
    const models = plan.uncovered.map((item) => item.model).join(", ") || "none configured";
    return {
      kind: "stop",
      reason: "no_credentials",
      message: `no usable credential for any model (${models})`,
    };
  }
  return policyStop(first) ?? { kind: "attempt", index: 0 };
}

/** Inputs of {@link nextAttempt}. */
export interface NextAttemptInput {
  plan: AttemptPlan;
  /** Index of the attempt that just failed. */
  index: number;
  reason: FailureReason;
  /** The failure named for users; stop messages show it instead of the bare reason. */
  detail?: string;
}

/**
 * After attempt `index` failed with `reason`: rotate to the next credential (rate_limit, auth,
 * billing; past the last one this moves to the next model), skip to the next model (overloaded,
 * timeout, malformed_stream), or stop (context_overflow, aborted, unknown, nothing left, policy).
 */
export function nextAttempt(input: NextAttemptInput): NextStep {
  const { plan, index, reason } = input;
  const failed = plan.attempts[index];
  if (!failed) return { kind: "stop", reason, message: `no attempt ${index}` };
  const why = input.detail ?? reason;
  const action = failoverAction(reason);
  if (action === "end_run") {
    return {
      kind: "stop",
      reason,
      message: `${failed.model} (${failed.credential.id}) failed: ${why}`,
    };
  }
  let next = index + 1;
  if (action === "next_model") {
    while (next < plan.attempts.length && plan.attempts[next].modelIndex === failed.modelIndex)
      next++;
  }
  const target = plan.attempts[next];
  if (!target) {
    return {
      kind: "stop",
      reason: "exhausted",
      message: `all models and credentials failed; last: ${failed.model} (${failed.credential.id}): ${why}`,
    };
  }
  const refused = policyStop(target);
  if (refused && refused.kind === "stop") {
    return {
      ...refused,
      message: `${failed.model} failed (${why}); fallback ${refused.message}`,
    };
  }
  const skipped = plan.uncovered
    .filter((item) => item.modelIndex > failed.modelIndex && item.modelIndex < target.modelIndex)
    .map((item) => item.model);
  const event: FailoverEvent = {
    type: "failover",
    from: labelOf(failed),
    to: labelOf(target),
    reason,
    ...(input.detail ? { detail: input.detail } : {}),
    scope: target.modelIndex === failed.modelIndex ? "profile" : "model",
    ...(skipped.length ? { skipped } : {}),
    ...(target.policy ? { warning: target.policy.reason } : {}),
  };
  return { kind: "attempt", index: next, event };
}
