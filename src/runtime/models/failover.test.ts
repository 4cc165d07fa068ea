import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { firstAttempt, nextAttempt, planAttempts } from "./attempts.js";
import { setAuthProfile } from "./auth-store.js";
import { classifyFailure, type FailureReason, failoverAction } from "./classify.js";
import { markProfileFailure, markProfileGood } from "./cooldown.js";
import type { CredentialCandidate } from "./credentials.js";
import { resolveCredentials } from "./credentials.js";
import type { ModelRef } from "./refs.js";

function httpError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status });
}

function errnoError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function errorMessage(text: string) {
  return fauxAssistantMessage("", { stopReason: "error", errorMessage: text });
}

describe("classifyFailure", () => {
  const table: Array<[string, unknown, FailureReason]> = [
    ["status 429", 429, "rate_limit"],
    ["status 500", 500, "overloaded"],
    ["status 503", 503, "overloaded"],
    ["status 529", 529, "overloaded"],
    ["status 401", 401, "auth"],
    ["status 403", 403, "auth"],
    ["status 402", 402, "billing"],
    ["status 408", 408, "timeout"],
    ["status 400 alone", 400, "unknown"],
    ["SDK 429 error", httpError(429, "429 Rate limit reached for requests"), "rate_limit"],
    [
      "SDK 529 error",
      httpError(
        529,
        '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      ),
      "overloaded",
    ],
    [
      "SDK 401 error",
      httpError(401, '401 {"error":{"type":"authentication_error","message":"invalid x-api-key"}}'),
      "auth",
    ],
    ["ETIMEDOUT", errnoError("ETIMEDOUT", "connect ETIMEDOUT 10.0.0.1:443"), "timeout"],
    ["ECONNRESET", errnoError("ECONNRESET", "read ECONNRESET"), "unreachable"],
    [
      "TimeoutError",
      Object.assign(new Error("The operation timed out"), { name: "TimeoutError" }),
      "timeout",
    ],
    [
      "AbortError",
      Object.assign(new Error("This operation was aborted"), { name: "AbortError" }),
      "aborted",
    ],
    [
      "billing text",
      errorMessage("400 Your credit balance is too low to access the Anthropic API"),
      "billing",
    ],
    [
      "insufficient quota",
      errorMessage(
        "429 You exceeded your current quota, please check your plan and billing details",
      ),
      "billing",
    ],
    [
      "anthropic overflow",
      errorMessage("prompt is too long: 213462 tokens > 200000 maximum"),
      "context_overflow",
    ],
    [
      "openai overflow",
      errorMessage("Your input exceeds the context window of this model"),
      "context_overflow",
    ],
    [
      "openrouter overflow",
      errorMessage("This endpoint's maximum context length is 131072 tokens"),
      "context_overflow",
    ],
    ["413 request_too_large", httpError(413, "413 request_too_large"), "context_overflow"],
    [
      "aborted message",
      fauxAssistantMessage("", { stopReason: "aborted", errorMessage: "Request was aborted" }),
      "aborted",
    ],
    ["status inside text", errorMessage("Error: 503 status code (no body)"), "overloaded"],
    ["timeout text", errorMessage("Request timed out."), "timeout"],
    ["cut stream", errorMessage("terminated"), "malformed_stream"],
    ["bad json", errorMessage("Unexpected end of JSON input"), "malformed_stream"],
    [
      "rate limit without status",
      errorMessage("Rate limit exceeded, please slow down"),
      "rate_limit",
    ],
    ["no api key", errorMessage("No API key for provider: fake-local"), "auth"],
    ["plain object", { status: 429, message: "slow down" }, "rate_limit"],
    ["nonsense", errorMessage("something odd happened"), "unknown"],
  ];
  it.each(table)("%s", (_name, input, expected) => {
    expect(classifyFailure(input)).toBe(expected);
  });

  it("maps reasons to rotate / next model / end run", () => {
    expect(
      ["rate_limit", "auth", "billing"].map((r) => failoverAction(r as FailureReason)),
    ).toEqual(["rotate_profile", "rotate_profile", "rotate_profile"]);
    expect(
      ["overloaded", "timeout", "malformed_stream"].map((r) => failoverAction(r as FailureReason)),
    ).toEqual(["next_model", "next_model", "next_model"]);
    expect(
      ["context_overflow", "aborted", "unknown"].map((r) => failoverAction(r as FailureReason)),
    ).toEqual(["end_run", "end_run", "end_run"]);
  });
});

describe("markProfileFailure / markProfileGood", () => {
  const NOW = Date.parse("2026-11-30T12:00:00Z");
  const MIN = 60_000;

  function agentWithProfile() {
    const agentDir = join(makeTempDir("pincer-cool-"), "agent");
    setAuthProfile({
      agentDir,
      profileId: "openai:a",
      profile: { type: "api_key", provider: "openai", key: "a" },
    });
    setAuthProfile({
      agentDir,
      profileId: "openai:b",
      profile: { type: "api_key", provider: "openai", key: "b" },
    });
    return agentDir;
  }

  it("rate limits back off 1, 5, 25, 60 min and the profile is skipped meanwhile", () => {
    const agentDir = agentWithProfile();
    const untils = [0, 1, 2, 3, 4].map(
      (i) =>
        markProfileFailure({ agentDir, profileId: "openai:a", reason: "rate_limit", now: NOW + i })
          ?.cooldownUntil,
    );
    expect(untils.map((until, i) => (until ?? 0) - (NOW + i))).toEqual([
      MIN,
      5 * MIN,
      25 * MIN,
      60 * MIN,
      60 * MIN,
    ]);
    const during = resolveCredentials({
      agentDir,
      provider: "openai",
      cfg: {},
      env: {},
      now: NOW + 10 * MIN,
    });
    expect(during.candidates.map((c) => c.id)).toEqual(["openai:b"]);
    expect(during.skipped[0]).toMatchObject({ id: "openai:a", reason: "cooldown" });
    const after = resolveCredentials({
      agentDir,
      provider: "openai",
      cfg: {},
      env: {},
      now: NOW + 61 * MIN,
    });
    expect(after.candidates.map((c) => c.id)).toContain("openai:a");
  });

  it("billing and auth disable for longer; billing honours auth.cooldowns", () => {
    const agentDir = agentWithProfile();
    const billing = markProfileFailure({
      agentDir,
      profileId: "openai:a",
      reason: "billing",
      now: NOW,
    });
    expect(billing).toMatchObject({
      disabledUntil: NOW + 5 * 60 * MIN,
      disabledReason: "billing",
      errorCount: 1,
    });
    const cfg = { auth: { cooldowns: { billingBackoffHours: 2, billingMaxHours: 3 } } };
    const second = markProfileFailure({
      agentDir,
      profileId: "openai:a",
      reason: "billing",
      now: NOW,
      cfg,
    });
    expect(second?.disabledUntil).toBe(NOW + 3 * 60 * MIN);
    const auth = markProfileFailure({ agentDir, profileId: "openai:b", reason: "auth", now: NOW });
    expect(auth).toMatchObject({ disabledUntil: NOW + 60 * MIN, disabledReason: "auth" });
  });

  it("counters reset after the failure window; env/config ids are ignored", () => {
    const agentDir = agentWithProfile();
    markProfileFailure({ agentDir, profileId: "openai:a", reason: "rate_limit", now: NOW });
    const later = markProfileFailure({
      agentDir,
      profileId: "openai:a",
      reason: "rate_limit",
      now: NOW + 25 * 60 * MIN,
    });
    expect(later).toMatchObject({ errorCount: 1, cooldownUntil: NOW + 25 * 60 * MIN + MIN });
    expect(
      markProfileFailure({ agentDir, profileId: "env:OPENAI_API_KEY", reason: "auth", now: NOW }),
    ).toBeUndefined();
  });

  it("a success clears the cooldown and becomes lastGood; a no-op success does not write", () => {
    const agentDir = agentWithProfile();
    markProfileFailure({ agentDir, profileId: "openai:b", reason: "rate_limit", now: NOW });
    expect(markProfileGood({ agentDir, profileId: "openai:b", now: NOW + 1 })).toBe(true);
    const saved = JSON.parse(readFileSync(join(agentDir, "auth-profiles.json"), "utf8"));
    expect(saved.lastGood).toEqual({ openai: "openai:b" });
    expect(saved.usageStats["openai:b"]).toMatchObject({
      errorCount: 0,
      lastUsed: NOW + 1,
      lastFailureReason: "rate_limit",
    });
    expect(saved.usageStats["openai:b"].cooldownUntil).toBeUndefined();
    expect(markProfileGood({ agentDir, profileId: "openai:b", now: NOW + 2 })).toBe(false);
  });
});

describe("planAttempts / nextAttempt", () => {
  const primary: ModelRef = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const fb1: ModelRef = { provider: "google", model: "gemini-2.5-pro" };
  const fb2: ModelRef = { provider: "openai", model: "gpt-5.4" };
  const cred = (id: string): CredentialCandidate => ({
    id,
    source: "profile",
    kind: "api_key",
    secret: `s-${id}`,
    profileId: id,
  });
  const creds: Record<string, CredentialCandidate[]> = {
    anthropic: [cred("anthropic:a"), cred("anthropic:b")],
    google: [],
    openai: [
      {
        id: "env:OPENAI_API_KEY",
        source: "env",
        kind: "api_key",
        secret: "x",
        envVar: "OPENAI_API_KEY",
      },
    ],
  };
  const plan = planAttempts({
    chain: { primary, fallbacks: [fb1, fb2] },
    credentialsFor: (ref) => creds[ref.provider],
  });

  it("lists every usable credential of the primary, then of each fallback", () => {
    expect(plan.attempts.map((a) => `${a.model}@${a.credential.id}`)).toEqual([
      "anthropic/claude-sonnet-4-5@anthropic:a",
      "anthropic/claude-sonnet-4-5@anthropic:b",
      "openai/gpt-5.4@env:OPENAI_API_KEY",
    ]);
    expect(plan.uncovered.map((u) => u.model)).toEqual(["google/gemini-2.5-pro"]);
    expect(firstAttempt(plan)).toEqual({ kind: "attempt", index: 0 });
  });

  it("a rate limit rotates the profile; exhausting profiles moves to the next model", () => {
    const first = nextAttempt({ plan, index: 0, reason: "rate_limit" });
    expect(first).toEqual({
      kind: "attempt",
      index: 1,
      event: {
        type: "failover",
        from: { model: "anthropic/claude-sonnet-4-5", credential: "anthropic:a" },
        to: { model: "anthropic/claude-sonnet-4-5", credential: "anthropic:b" },
        reason: "rate_limit",
        scope: "profile",
      },
    });
    const second = nextAttempt({ plan, index: 1, reason: "auth" });
    expect(second).toMatchObject({
      kind: "attempt",
      index: 2,
      event: { scope: "model", skipped: ["google/gemini-2.5-pro"] },
    });
  });

  it("overload skips the model's other profiles; overflow and aborts stop; the end is explicit", () => {
    expect(nextAttempt({ plan, index: 0, reason: "overloaded" })).toMatchObject({
      kind: "attempt",
      index: 2,
    });
    expect(nextAttempt({ plan, index: 0, reason: "context_overflow" })).toMatchObject({
      kind: "stop",
      reason: "context_overflow",
    });
    expect(nextAttempt({ plan, index: 0, reason: "aborted" })).toMatchObject({
      kind: "stop",
      reason: "aborted",
    });
    expect(nextAttempt({ plan, index: 2, reason: "timeout" })).toMatchObject({
      kind: "stop",
      reason: "exhausted",
      message: expect.stringContaining("openai/gpt-5.4"),
    });
  });

  it("a fallback that breaks a fail policy ends the run instead of degrading; warn goes on", () => {
    const chain = { primary, fallbacks: [fb2] };
    const credentialsFor = (ref: ModelRef) => creds[ref.provider];
    const strict = planAttempts({
      chain,
      credentialsFor,
      policy: { forbid: ["openai/*"], onMismatch: "fail" },
    });
    expect(nextAttempt({ plan: strict, index: 1, reason: "rate_limit" })).toMatchObject({
      kind: "stop",
      reason: "policy",
      message: expect.stringContaining("forbidden"),
    });
    const lax = planAttempts({
      chain,
      credentialsFor,
      policy: { forbid: ["openai/*"], onMismatch: "warn" },
    });
    expect(nextAttempt({ plan: lax, index: 1, reason: "rate_limit" })).toMatchObject({
      kind: "attempt",
      event: { warning: expect.stringContaining("forbidden") },
    });
    const primaryRefused = planAttempts({
      chain,
      credentialsFor,
      policy: { allow: ["openai/*"], onMismatch: "fail" },
    });
    expect(firstAttempt(primaryRefused)).toMatchObject({ kind: "stop", reason: "policy" });
    expect(firstAttempt({ attempts: [], uncovered: [] })).toMatchObject({
      kind: "stop",
      reason: "no_credentials",
    });
  });
});
