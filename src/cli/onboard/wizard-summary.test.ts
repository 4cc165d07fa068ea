// The Control UI URL the wizard's next steps name: the configured (or answered) port and
// `gateway.controlUi.basePath`.
import { describe, expect, it } from "vitest";
import type { WizardOutcome } from "./wizard-apply.js";
import { dashboardUrl } from "./wizard-summary.js";

function outcome(gateway: Record<string, unknown> | undefined, answeredPort?: number) {
  return {
    answers: answeredPort === undefined ? {} : { gateway: { port: answeredPort } },
    loaded: { config: gateway ? { gateway } : {} },
  } as unknown as WizardOutcome;
}

describe("dashboardUrl", () => {
  it("names the default port at the root", () => {
    expect(dashboardUrl(outcome(undefined))).toBe("http://127.0.0.1:18789/");
  });

  it("uses the answered port over the configured one, and the base path", () => {
    expect(dashboardUrl(outcome({ port: 19000, controlUi: { basePath: "/ui/" } }))).toBe(
      "http://127.0.0.1:19000/ui/",
    );
    expect(dashboardUrl(outcome({ port: 19000, controlUi: { basePath: "ops/ui" } }, 20000))).toBe(
      "http://127.0.0.1:20000/ops/ui/",
    );
  });
});
