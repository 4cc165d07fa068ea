import { defineConfig } from "vitest/config";

// Importing the app dominated the suite's run time (one fresh module graph per test file), so
// no project isolates files: a worker keeps its module graph from one file to the next. That is
// safe because src/ keeps no module state (house rule) and every test builds its own deps.
// Two projects: the unit tests next to the sources, and test/** (real gateways, spawned
// processes, browsers), which builds dist/ first when it is stale (test/build-setup.ts).
export default defineConfig({
  test: {
    testTimeout: 20_000,
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
