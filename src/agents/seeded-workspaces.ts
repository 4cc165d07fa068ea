// Which workspaces this process has already seeded: seeding (mkdir + exclusive creates of the
// templates) runs once per workspace and mode instead of on every turn. A workspace found missing
// later (see BootstrapCache) is forgotten, so the next turn seeds it again.
import { resolve } from "node:path";
import { type SeedWorkspaceParams, seedWorkspace } from "./workspace.js";

/** Seeds each workspace once per process; concurrent callers share the one seeding. */
export class SeededWorkspaces {
  private readonly seeded = new Map<string, Promise<void>>();

  /** Seeds `params.dir` unless this process already did (a failed seeding is retried next time). */
  ensure(params: SeedWorkspaceParams): Promise<void> {
    const dir = resolve(params.dir);
    const key = `${params.skipBootstrap === true ? "skip" : "seed"}\0${dir}`;
    let pending = this.seeded.get(key);
    if (!pending) {
      pending = seedWorkspace({ ...params, dir }).then(
        () => undefined,
        (err: unknown) => {
          this.seeded.delete(key);
          throw err;
        },
      );
      this.seeded.set(key, pending);
    }
    return pending;
  }

  /** Forgets a workspace (it was found missing): the next {@link ensure} seeds it again. */
  forget(dir: string): void {
    const resolved = resolve(dir);
    this.seeded.delete(`skip\0${resolved}`);
    this.seeded.delete(`seed\0${resolved}`);
  }
}
