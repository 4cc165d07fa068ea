// `pincer doctor`: checks config, state-dir permissions, stale locks, orphan transcripts, workspaces and
// providers, and with --fix applies the safe repairs. Declaration only; `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";

/** Options of `pincer doctor`. */
export const doctorOptions = {
  fix: flag("apply the safe repairs (permissions, stale locks, missing workspaces)"),
  repair: flag("alias of --fix"),
  yes: flag("accept the safe repairs without asking (same as --fix)"),
  nonInteractive: flag("never prompt (doctor never does; accepted for scripts)"),
  offline: flag("skip the provider reachability probe"),
  json: flag("print JSON"),
};

/** `pincer doctor`. */
export const doctorCommands = [
  defineCommand({
    path: ["doctor"],
    description:
      "check config, state-dir permissions, stale locks, orphan transcripts, workspaces and providers",
    options: doctorOptions,
    run: lazyRun(() => import("./doctor.js")),
  }),
];
