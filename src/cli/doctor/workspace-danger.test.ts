// doctor flags an agent workspace that is the home dir or the state dir (or holds them) as an error it
// does not repair: the fix is a config change, and --fix must not seed or touch anything there.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

describe("doctor: workspaces that are not workspace folders", () => {
  it("reports ~ and the state dir as errors and --fix leaves them alone", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        agents: {
          list: [
            { id: "main", workspace: "~" },
            { id: "ops", workspace: sb.stateDir },
          ],
        },
      }),
    );
    const before = readdirSync(sb.home).sort();
    const res = await sb.run(["doctor", "--fix", "--offline", "--json"]);
    expect(res.code).toBe(1);
    const findings = JSON.parse(res.stdout).findings.filter(
      (f: { checkId: string }) => f.checkId === "workspaces",
    );
    expect(findings).toHaveLength(2);
    expect(findings[0]).toMatchObject({ severity: "error", fixable: false });
    expect(findings[0].message).toContain("it is or contains the home dir");
    expect(findings[1].message).toContain("it is or contains the state dir");
    expect(readdirSync(sb.home).sort()).toEqual(before);
  });
});
