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

describe("pincer help <path>", () => {
  it("shows the help of a nested command", async () => {
    const sb = createCliSandbox();
    const res = await sb.run(["help", "pairing", "approve"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Usage: pincer pairing approve [options] <codeOrChannel> [code]");
    const models = await sb.run(["--profile", "work", "help", "models", "auth", "add"]);
    expect(models.stdout).toContain("Usage: pincer models auth add");
  });

  it("names an unknown command with a did-you-mean (exit 2)", async () => {
    const sb = createCliSandbox();
    const top = await sb.run(["help", "pairng"]);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain("unknown command 'pairng' for pincer (did you mean pairing?)");
    const nested = await sb.run(["help", "devices", "revok"]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain(
      "unknown command 'revok' for pincer devices (did you mean revoke?)",
    );
    const none = await sb.run(["help", "zzzzzz"]);
    expect(none.stderr).toMatch(/unknown command 'zzzzzz' for pincer; commands: gateway, /);
  });
});

describe("misspelt subcommands of groups with a default command", () => {
  it("are named with a did-you-mean instead of 'too many arguments'", async () => {
    const sb = createCliSandbox();
    for (const [argv, word, guess] of [
      [["gateway", "stauts"], "stauts", "status"],
      [["sessions", "shw", "main"], "shw", "show"],
      [["models", "lsit"], "lsit", "list"],
      [["pairing", "aprove", "ABCD2345"], "aprove", "approve"],
      [["pairing", "lst"], "lst", "list"],
      [["channels", "failures", "rety"], "rety", "retry"],
    ] as const) {
      const res = await sb.run([...argv]);
      expect(res.code, argv.join(" ")).toBe(2);
      expect(res.stderr, argv.join(" ")).toContain(`unknown command '${word}'`);
      expect(res.stderr, argv.join(" ")).toContain(`(did you mean ${guess}?)`);
    }
    // A positional of the default command is not a typo.
    const list = await sb.run(["pairing", "telegram", "--json"]);
    expect(list.code).toBe(0);
  });
});
