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
