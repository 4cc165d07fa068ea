// The `cron` config as the scheduler reads it: enabled (default true; `OPENCLAW_SKIP_CRON=1` also
// turns it off, as OpenClaw), `maxConcurrentRuns` (1), `skipMissedJobs`, the run-log limits
// (`runLog.maxBytes` as bytes or "2mb", `runLog.keepLines`) and the store path. Pure.
import type { OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_RUN_LOG_KEEP_LINES, DEFAULT_RUN_LOG_MAX_BYTES } from "./run-log.js";
import type { CronSettings } from "./service.js";

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1000, mb: 1_000_000, gb: 1_000_000_000 };

/** 2000000, "2mb", "512kb" → bytes; undefined when not a size. */
export function parseByteSize(value: number | string | undefined): number | undefined {
  if (typeof value === "number") return value >= 1 ? Math.floor(value) : undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value?.trim() ?? "");
  if (!match) return undefined;
  const bytes = Number(match[1]) * (SIZE_UNITS[(match[2] ?? "b").toLowerCase()] ?? 1);
  return bytes >= 1 ? Math.floor(bytes) : undefined;
}

/** The scheduler settings of a config and environment. */
export function cronSettings(
  cfg: OpenClawConfig,
  env: Record<string, string | undefined>,
): CronSettings {
  const cron = cfg.cron ?? {};
  const skip = env.OPENCLAW_SKIP_CRON?.trim();
  return {
    enabled: cron.enabled !== false && !(skip && skip !== "0" && skip.toLowerCase() !== "false"),
    maxConcurrentRuns: cron.maxConcurrentRuns ?? 1,
    skipMissed: cron.skipMissedJobs === true,
    runLog: {
      maxBytes: parseByteSize(cron.runLog?.maxBytes) ?? DEFAULT_RUN_LOG_MAX_BYTES,
      keepLines: cron.runLog?.keepLines ?? DEFAULT_RUN_LOG_KEEP_LINES,
    },
  };
}
