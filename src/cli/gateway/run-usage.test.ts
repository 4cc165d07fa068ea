// `pincer gateway --json` with a wrong command line: commander's usage errors are JSON lines too.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { asksForJson } from "./run-usage.js";

/** Every line of `text` parsed as a JSON object (a line that is not one fails, naming it). */
function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

describe("gateway --json usage errors", () => {
  it.each([
    [["gateway", "--json", "--bogus"], "unknown option '--bogus'"],
    [["gateway", "run", "--bogus", "--json"], "unknown option '--bogus'"],
    [["gateway", "--json", "--port"], "option '--port <port>' argument missing"],
    [["gateway", "--json", "extra"], "too many arguments"],
  ])("%j: one fatal JSON record on stderr, exit 2, nothing else", async (argv, message) => {
    const sb = createCliSandbox();
    const run = await sb.run(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const records = jsonLines(run.stderr);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: "fatal", exitCode: 2 });
    expect(String(records[0].msg)).toContain(message);
    expect(typeof records[0].time).toBe("string");
  });

  it("without --json the usage error stays commander's text with the help hint", async () => {
    const run = await createCliSandbox().run(["gateway", "--bogus"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--bogus'");
    expect(run.stderr).toContain("(run with --help for usage)");
  });

  it("reads --json only before a `--`", () => {
    expect(asksForJson(["gateway", "--json"])).toBe(true);
    expect(asksForJson(["gateway", "--", "--json"])).toBe(false);
    expect(asksForJson(["gateway", "--port", "0"])).toBe(false);
  });
});
