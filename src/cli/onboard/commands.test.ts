// `pincer onboard`'s options are declared from AUTH_CHOICES (one `--<provider>-api-key <key>` each)
// plus OpenClaw's skip flags as hidden no-ops: a new choice gets its flag without another edit.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { flagName } from "../command.js";
import { onboardOptions } from "./commands.js";
import { NEEDS_TERMINAL } from "./onboard.js";
import { AUTH_CHOICES } from "./wizard-answers.js";

describe("pincer onboard's declared options", () => {
  it("offer one key option per auth choice, in help and in the declaration", async () => {
    const sb = createCliSandbox();
    const help = (await sb.run(["onboard", "--help"])).stdout;
    for (const choice of Object.values(AUTH_CHOICES)) {
      expect(help).toContain(`${flagName(choice.keyOption)} <key>`);
      expect(onboardOptions).toHaveProperty(choice.keyOption);
    }
    expect(help).toMatch(/--install-daemon .*\n\s+.*\n\s+--no-install-daemon\s+do not install/);
  });

  it("accept OpenClaw's skip flags without showing them", async () => {
    const sb = createCliSandbox();
    const help = (await sb.run(["onboard", "--help"])).stdout;
    const skips = ["--skip-skills", "--skip-health", "--skip-ui", "--skip-search"];
    for (const skip of skips) expect(help).not.toContain(skip);
    // No terminal and no --non-interactive: the run gets past option parsing and stops there.
    const res = await sb.run(["onboard", ...skips]);
    expect(res.stderr).not.toContain("unknown option");
    expect(res.stderr).toContain(NEEDS_TERMINAL);
  });
});
