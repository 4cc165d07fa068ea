import { defineConfig } from "vitest/config";

// Two projects: the unit tests next to the sources share one module graph per worker
// (isolate: false; importing the app dominates their run time), while test/** (real gateways,
// spawned processes, browsers) keeps one fresh module graph per file and builds dist/ first.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts"], isolate: false },
      },
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
