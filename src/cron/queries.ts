// The read side of `cron.list` and `cron.runs`, pure: filter, sort and page jobs and run-log
// entries with OpenClaw's params (limit/offset, query, enabled, sortBy/sortDir, statuses) and its
// page shape ({total, offset, limit, hasMore, nextOffset}).
import type { CronListParams, CronRunsParams } from "../protocol/gateway/cron.js";
import type { CronJob, CronRunLogEntry } from "./types.js";

/** One page of a list. */
export interface Page {
  total: number;
  offset: number;
  limit: number;
  hasMore: boolean;
  nextOffset: number | null;
}

function page<T>(items: T[], offset = 0, limit = 50): { items: T[]; page: Page } {
  const slice = items.slice(offset, offset + limit);
  const end = offset + slice.length;
  return {
    items: slice,
    page: {
      total: items.length,
      offset,
      limit,
      hasMore: end < items.length,
      nextOffset: end < items.length ? end : null,
    },
  };
}

function matches(query: string | undefined, fields: Array<string | undefined>): boolean {
  const wanted = query?.trim().toLowerCase();
  if (!wanted) return true;
  return fields.some((field) => field?.toLowerCase().includes(wanted));
}

/** `cron.list`: enabled jobs by default (`includeDisabled` or `enabled: "all"` for every job), soonest first. */
export function listJobs(jobs: readonly CronJob[], params: CronListParams) {
  const filter = params.enabled ?? (params.includeDisabled ? "all" : "enabled");
  const dir = params.sortDir === "desc" ? -1 : 1;
  const sortBy = params.sortBy ?? "nextRunAtMs";
  const key = (job: CronJob): number | string =>
    sortBy === "name"
      ? job.name.toLowerCase()
      : sortBy === "updatedAtMs"
        ? job.updatedAtMs
        : (job.state.nextRunAtMs ?? Number.MAX_SAFE_INTEGER);
  const chosen = jobs
    .filter((job) => filter === "all" || (filter === "enabled") === job.enabled)
    .filter((job) => matches(params.query, [job.id, job.name, job.description]))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -dir : ka > kb ? dir : 0;
    });
  const { items, page: info } = page(chosen, params.offset, params.limit);
  return { jobs: items, ...info };
}

/** `cron.runs`: run-log entries, newest first by default, filtered by status and text. */
export function listRuns(entries: readonly CronRunLogEntry[], params: CronRunsParams) {
  const statuses: readonly string[] | undefined =
    params.statuses ?? (params.status && params.status !== "all" ? [params.status] : undefined);
  const chosen = entries
    .filter((entry) => !statuses || (entry.status !== undefined && statuses.includes(entry.status)))
    .filter((entry) =>
      matches(params.query, [entry.jobName, entry.summary, entry.error, entry.jobId]),
    )
    .sort((a, b) => (params.sortDir === "asc" ? a.ts - b.ts : b.ts - a.ts));
  const { items, page: info } = page(chosen, params.offset, params.limit);
  return { entries: items, ...info };
}
