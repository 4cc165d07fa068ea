// `pincer help [command]` and `--help` are answers, not errors: exit 0 as in OpenClaw; a command
// group run without its subcommand prints help on stderr and exits 2 (usage).
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";

describe("pincer help", () => {
  it("exits 0 for help, help <command> and help <command> <sub>", async () => {
    const sb = createCliSandbox();
    for (const argv of [["help"], ["help", "pairing"], ["help", "config"], ["pairing", "help"]]) {
      const res = await sb.run(argv);
      expect(res.code, argv.join(" ")).toBe(0);
      expect(res.stdout, argv.join(" ")).toContain("Usage: pincer");
    }
  });

  it("a command group without its subcommand is a usage error (help on stderr, exit 2)", async () => {
    const sb = createCliSandbox();
    const res = await sb.run(["config"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("Usage: pincer config");
  });
});

describe("pincer --help text", () => {
  it("never shows commander's (default: []) for repeatable options", async () => {
    const sb = createCliSandbox();
    for (const argv of [
      ["agents", "add", "--help"],
      ["agents", "bind", "--help"],
      ["agents", "unbind", "--help"],
      ["configure", "--help"],
    ]) {
      const res = await sb.run(argv);
      expect(res.code).toBe(0);
      expect(res.stdout, argv.join(" ")).not.toContain("(default: [])");
    }
    const add = await sb.run(["agents", "add", "--help"]);
    expect(add.stdout).toContain("--bind <channel[:accountId]>");
  });
});
