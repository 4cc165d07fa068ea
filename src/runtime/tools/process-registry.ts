// The registry of background jobs started by `exec` with `background: true` and read by `process`. The
// caller owns it (one per gateway, or per test): nothing here is module state. Jobs are scoped (agent or
// session) so one agent never sees another's processes; finished jobs are pruned after a retention window.
import { randomBytes } from "node:crypto";
import type { ShellProcess } from "./shell-process.js";

/** One background job. */
export interface ProcessJob {
  id: string;
  /** Who may see it: the agent id, or a session key when the run loop scopes per session. */
  scope: string;
  command: string;
  cwd: string;
  process: ShellProcess;
}

/** Options of {@link ProcessRegistry}. */
export interface ProcessRegistryOptions {
  /** How long a finished job stays listed (default 30 min, OpenClaw's `tools.exec.cleanupMs`). */
  finishedTtlMs?: number;
  /** Finished jobs kept per scope at most (default 50). */
  maxFinishedPerScope?: number;
  now?: () => number;
  newId?: () => string;
}

/** The background jobs of a process (gateway), keyed by id and grouped by scope. */
export class ProcessRegistry {
  private readonly jobs = new Map<string, ProcessJob>();
  private readonly finishedTtlMs: number;
  private readonly maxFinished: number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(options: ProcessRegistryOptions = {}) {
    this.finishedTtlMs = options.finishedTtlMs ?? 30 * 60_000;
    this.maxFinished = options.maxFinishedPerScope ?? 50;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => randomBytes(4).toString("hex"));
  }

  /** Registers a started process and returns its job. */
  add(params: Omit<ProcessJob, "id">): ProcessJob {
    let id = this.newId();
    while (this.jobs.has(id)) id = this.newId();
    const job: ProcessJob = { ...params, id };
    this.jobs.set(id, job);
    this.prune(params.scope);
    return job;
  }

  /** The job `id` if it belongs to `scope`. */
  get(scope: string, id: string): ProcessJob | undefined {
    const job = this.jobs.get(id.trim());
    return job && job.scope === scope ? job : undefined;
  }

  /** Jobs of `scope`, oldest first (finished ones past the retention window are dropped first). */
  list(scope: string): ProcessJob[] {
    this.prune(scope);
    return [...this.jobs.values()].filter((job) => job.scope === scope);
  }

  /** Forgets a finished job; a running one must be killed first. Returns false when absent or running. */
  remove(scope: string, id: string): boolean {
    const job = this.get(scope, id);
    if (!job || job.process.running) return false;
    return this.jobs.delete(job.id);
  }

  /** Stops every running job (gateway shutdown) and waits until they have ended. */
  async stopAll(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => job.process.running);
    for (const job of running) job.process.stop();
    await Promise.all(running.map((job) => job.process.done));
  }

  private prune(scope: string): void {
    const cutoff = this.now() - this.finishedTtlMs;
    const finished = [...this.jobs.values()].filter(
      (job) => job.scope === scope && job.process.exit !== undefined,
    );
    finished.forEach((job, index) => {
      const endedAt = job.process.startedAt + (job.process.exit?.durationMs ?? 0);
      if (endedAt < cutoff || finished.length - index > this.maxFinished) this.jobs.delete(job.id);
    });
  }
}
