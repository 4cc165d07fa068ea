import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Importing the app dominated the suite's run time (one fresh module graph per test file), so
// no project isolates files: a worker keeps its module graph from one file to the next. That is
// safe because src/ keeps no module state (house rule) and every test builds its own deps.
// Two projects: the unit tests next to the sources, and test/** (real gateways, spawned
// processes, browsers), which builds dist/ first when it is stale (test/build-setup.ts).
// At least two workers: vitest's default (one fewer than the cores) runs everything in ONE worker
// on a 2-core machine, which then sits mostly idle, waiting on spawned gateways, sockets and timers
// (a serial run kept one core 75% busy and the other free).
export default defineConfig({
  test: {
    testTimeout: 20_000,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ["test/global-setup.ts"],
    isolate: false,
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/build-setup.ts"],
        },
      },
    ],
  },
});
