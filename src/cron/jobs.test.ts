// A job's life without a clock of its own: made from cron.add params (defaults, checks naming the
// field), patched (null clears the agent, a payload of another kind needs its text), advanced after
// runs (one-shot deletion or disabling, recurring backoff).
import { describe, expect, it } from "vitest";
import { createJob, ERROR_BACKOFF_MS, finishRun, patchJob } from "./jobs.js";
import type { CronJob } from "./types.js";

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const isolated = {
  name: " Brief ",
  schedule: { kind: "every" as const, everyMs: 600_000 },
  sessionTarget: "isolated" as const,
  payload: { kind: "agentTurn" as const, message: "go" },
};

function made(input: Parameters<typeof createJob>[0]["input"]): CronJob {
  const result = createJob({ input, id: "j1", nowMs: NOW });
  if (!result.ok) throw new Error(result.error);
  return result.job;
}

describe("cron jobs", () => {
  it("fills OpenClaw's defaults: enabled, wakeMode now, one-shots deleted after success", () => {
    const every = made(isolated);
    expect(every).toMatchObject({
      name: "Brief",
      enabled: true,
      wakeMode: "now",
      state: { nextRunAtMs: NOW + 600_000 },
    });
    expect(every.deleteAfterRun).toBeUndefined();
    const once = made({ ...isolated, schedule: { kind: "at", at: "2026-01-10T13:00:00Z" } });
    expect(once).toMatchObject({
      deleteAfterRun: true,
      state: { nextRunAtMs: Date.UTC(2026, 0, 10, 13) },
    });
  });

  it("refuses a target that does not fit the payload, delivery on a main job, an unknown thinking level", () => {
    const refuse = (input: object) =>
      createJob({ input: { ...isolated, ...input } as never, id: "j", nowMs: NOW });
    expect(refuse({ sessionTarget: "main" })).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs payload.kind "systemEvent"'),
    });
    expect(
      refuse({
        sessionTarget: "main",
        payload: { kind: "systemEvent", text: "t" },
        delivery: { mode: "announce" },
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringContaining("delivery is only for isolated jobs"),
    });
    expect(refuse({ payload: { kind: "agentTurn", message: "m", thinking: "max" } })).toMatchObject(
      {
        ok: false,
        error: expect.stringContaining('payload.thinking "max"'),
      },
    );
  });

  it("takes a webhook on either kind of job (an http(s) URL in to, no channel); a new mode drops the old target", () => {
    const hook = { mode: "webhook" as const, to: "https://example.invalid/hook" };
    const main = made({
      ...isolated,
      sessionTarget: "main",
      payload: { kind: "systemEvent", text: "t" },
      delivery: hook,
    });
    expect(main.delivery).toEqual(hook);
    const refuse = (delivery: object) =>
      createJob({ input: { ...isolated, delivery } as never, id: "j", nowMs: NOW });
    expect(refuse({ mode: "webhook", to: "telegram:1" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("webhook delivery needs delivery.to to be an http(s) URL"),
    });
    expect(refuse({ ...hook, accountId: "a" })).toMatchObject({
      ok: false,
      error: "webhook delivery takes no accountId (only to: the URL)",
    });
    const announced = made({
      ...isolated,
      delivery: { mode: "announce", channel: "telegram", to: "42", bestEffort: true },
    });
    const switched = patchJob({ job: announced, patch: { delivery: hook }, nowMs: NOW });
    expect(switched).toMatchObject({ ok: true, job: { delivery: hook } });
    const back = patchJob({
      job: made({ ...isolated, delivery: hook }),
      patch: { delivery: { mode: "announce" } },
      nowMs: NOW,
    });
    expect(back).toMatchObject({ ok: true, job: { delivery: { mode: "announce" } } });
    // Same mode: the fields not patched are kept.
    const moved = patchJob({
      job: made({ ...isolated, delivery: hook }),
      patch: { delivery: { to: "https://example.invalid/other" } },
      nowMs: NOW,
    });
    expect(moved).toMatchObject({
      ok: true,
      job: { delivery: { mode: "webhook", to: "https://example.invalid/other" } },
    });
  });

  it("patches: null clears the agent, a new schedule reschedules, a payload of another kind needs its text", () => {
    const job = made({ ...isolated, agentId: "ops" });
    const cleared = patchJob({
      job,
      patch: { agentId: null, schedule: { kind: "every", everyMs: 60_000 } },
      nowMs: NOW + 1,
    });
    expect(cleared.ok && cleared.job.agentId).toBeUndefined();
    expect(cleared.ok && cleared.job.state.nextRunAtMs).toBe(NOW + 60_000);
    expect(
      patchJob({ job, patch: { payload: { kind: "agentTurn", model: "fake/m2" } }, nowMs: NOW }),
    ).toMatchObject({
      ok: true,
      job: { payload: { kind: "agentTurn", message: "go", model: "fake/m2" } },
    });
    expect(
      patchJob({
        job,
        patch: { sessionTarget: "main", payload: { kind: "systemEvent" } },
        nowMs: NOW,
      }),
    ).toMatchObject({ ok: false, error: 'payload.kind "systemEvent" needs text' });
    const off = patchJob({ job, patch: { enabled: false }, nowMs: NOW });
    expect(off.ok && off.job.state.nextRunAtMs).toBeUndefined();
  });

  it("after a run: a recurring error backs off, a success resets the count", () => {
    const job = made(isolated);
    const timing = { startedAtMs: NOW + 600_000, endedAtMs: NOW + 600_000 };
    let current: CronJob | undefined = job;
    for (let i = 0; i < 6; i++) {
      current = finishRun({
        job: current!,
        outcome: { status: "error", error: "x", deliveryStatus: "unknown" },
        timing,
      });
    }
    expect(current?.state).toMatchObject({ consecutiveErrors: 6, lastError: "x" });
    expect(current?.state.nextRunAtMs).toBe(timing.endedAtMs + ERROR_BACKOFF_MS.at(-1)!);
    const healed = finishRun({
      job: current!,
      outcome: { status: "ok", deliveryStatus: "delivered" },
      timing,
    });
    expect(healed?.state).toMatchObject({
      consecutiveErrors: 0,
      lastDelivered: true,
      nextRunAtMs: NOW + 1_200_000,
    });
    expect(healed?.state.lastError).toBeUndefined();
  });
});
