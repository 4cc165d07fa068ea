// Only the invoked command's family is registered (start-up), yet everything that needs the whole
// tree still sees it: the root's help (also behind global flags), typo suggestions for an unknown
// word, and completion scripts; a family's own help and its subcommand typos work as before.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";

describe("the registered command tree", () => {
  it("is whole for the root's help, unknown words and completion", async () => {
    const sb = createCliSandbox();
    for (const argv of [["--help"], ["--no-color", "--help"], ["--profile", "work", "--help"]]) {
      const res = await sb.run(argv);
      expect(res.code, argv.join(" ")).toBe(0);
      for (const word of ["gateway", "sessions", "models", "channels", "cron"])
        expect(res.stdout, `${argv.join(" ")}: ${word}`).toMatch(new RegExp(`^  ${word}\\b`, "m"));
    }
    const typo = await sb.run(["--no-color", "sesions", "list"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("sessions");
    const completion = await sb.run(["completion", "bash"]);
    expect(completion.code).toBe(0);
    for (const word of ["gateway", "sessions", "pairing"])
      expect(completion.stdout).toContain(word);
  });

  it("holds the invoked family: its help, its subcommands' typos, global flags before it", async () => {
    const sb = createCliSandbox();
    const help = await sb.run(["--profile", "work", "sessions", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: pincer sessions");
    expect(help.stdout).toMatch(/^ {2}list\b/m);
    const typo = await sb.run(["sessions", "lst"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("list");
  });
});
