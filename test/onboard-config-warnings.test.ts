// What `pincer onboard` writes is what Pincer runs: the config of a scripted first run validates
// with no error and no warning (no key it wrote is "accepted for compatibility, ignored"). OpenClaw
// writes `gateway.mode: "local"` too, so only `"remote"` is reported as ignored.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";

interface ValidateReport {
  valid: boolean;
  issues: Array<{ severity: string; path: string; message: string }>;
}

async function validate(sb: ReturnType<typeof createCliSandbox>): Promise<ValidateReport> {
  const run = await sb.run(["config", "validate", "--json"]);
  return JSON.parse(run.stdout) as ValidateReport;
}

describe("the config onboard writes", () => {
  it.each([
    [["--auth-choice", "openai-api-key", "--openai-api-key", "sk-test-onboard"]],
    [
      [
        "--auth-choice",
        "custom-api-key",
        "--custom-base-url",
        "http://127.0.0.1:9/v1",
        "--custom-model-id",
        "m1",
        "--custom-api-key",
        "local",
        "--telegram-token",
        "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
        "--gateway-auth",
        "password",
        "--gateway-password",
        "pw-onboard",
      ],
    ],
    [["--auth-choice", "skip", "--skip-channels"]],
  ])("%j validates with no warning", async (flags) => {
    const sb = createCliSandbox();
    const onboard = await sb.run(["onboard", "--non-interactive", "--accept-risk", ...flags]);
    expect(onboard.stderr).toBe("");
    expect(onboard.code).toBe(0);
    const report = await validate(sb);
    expect(report.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it('gateway.mode "remote" is the one value reported as ignored', async () => {
    const sb = createCliSandbox();
    sb.writeConfig('{ gateway: { mode: "remote" } }');
    const report = await validate(sb);
    expect(report.issues).toEqual([
      expect.objectContaining({ severity: "warning", path: "gateway.mode" }),
    ]);
  });
});
