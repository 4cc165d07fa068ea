// pino is imported by the daemon logger only, through a dynamic import (on `flush()`, after the
// gateway listens), and that module only through a dynamic import (by `pincer gateway run`): the
// CLI's entry (`pincer --help`), an in-process gateway, the silent logger and the `logs.tail` ring
// never load it, nor does a daemon before it listens. Checked on the static import graph.
import { describe, expect, it } from "vitest";
import { staticPathTo } from "../../../test/helpers/static-imports.js";

describe("pino stays behind `gateway run`", () => {
  it("is seen by the check where a module imports it statically", () => {
    expect(staticPathTo("gateway/logging/daemon-logger.test.ts", "pino")).toEqual([
      "gateway/logging/daemon-logger.test.ts",
    ]);
  });

  it.each([
    "cli/main.ts",
    "gateway/index.ts",
    "gateway/server.ts",
    "lib/logger.ts",
    "gateway/logging/log-ring.ts",
    "gateway/logging/daemon-logger.ts",
    "cli/gateway/run.ts",
  ])("is not loaded by %s", (entry) => {
    expect(staticPathTo(entry, "pino")).toBeUndefined();
  });
});
