// The global `--profile` against subcommand options, through the real argv parser (runCli): an auth
// profile is `--profile-id`; `--profile` anywhere selects the state dir, says so when it follows the
// command, and refuses names that cannot be a directory suffix.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";
import { InvalidProfileNameError, resolveStatePaths } from "../config/paths.js";
import { findProfileFlag, findShadowedGlobalOptions } from "./global-profile.js";

/** A sandbox whose state dir comes from HOME and `--profile` (no OPENCLAW_STATE_DIR). */
function profileSandbox() {
  const sb = createCliSandbox();
  delete (sb.env as Record<string, string | undefined>).OPENCLAW_STATE_DIR;
  return sb;
}

describe("global --profile vs subcommand options", () => {
  it("models auth add --profile-id names the auth profile and writes to the active state dir", async () => {
    const sb = createCliSandbox();
    const out = await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile-id", "openai:team9"],
      "sk-team9",
    );
    expect(out).toMatchObject({ code: 0, stdout: "openai:team9\n" });
    const path = join(sb.stateDir, "agents", "main", "agent", "auth-profiles.json");
    expect(out.stderr).toContain(`saved api_key for agent main in ~/.openclaw/agents/main/agent`);
    expect(JSON.parse(readFileSync(path, "utf8")).profiles).toEqual({
      "openai:team9": { type: "api_key", provider: "openai", key: "sk-team9" },
    });
    const bare = await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile-id", "ci", "--json"],
      "sk-ci",
    );
    expect(JSON.parse(bare.stdout)).toMatchObject({ profileId: "openai:ci", path });
    const wrong = await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile-id", "anthropic:x"],
      "k",
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('is for provider "anthropic", not --provider openai');
  });

  it("--profile after the command is the global flag, and stderr names the state dir it selects", async () => {
    const sb = profileSandbox();
    const out = await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile", "team9"],
      "sk-x",
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "note: --profile team9 is the global state-dir profile: using state dir ~/.openclaw-team9",
    );
    expect(out.stderr).toContain("an auth profile is --profile-id");
    expect(out.stderr).toContain(
      "saved api_key for agent main in ~/.openclaw-team9/agents/main/agent/auth-profiles.json",
    );
    expect(out.stdout).toBe("openai:default\n");

    const after = await sb.run(["config", "file", "--profile", "work"]);
    expect(after.stdout).toBe(`${join(sb.home, ".openclaw-work", "openclaw.json")}\n`);
    expect(after.stderr).toContain("using state dir ~/.openclaw-work");
    // Before the command it is unambiguous: no note.
    const before = await sb.run(["--profile", "work", "config", "file"]);
    expect(before).toMatchObject({
      stdout: `${join(sb.home, ".openclaw-work", "openclaw.json")}\n`,
      stderr: "",
    });
  });

  it("refuses a --profile that cannot be a state-dir name, pointing auth ids to --profile-id", async () => {
    const sb = profileSandbox();
    for (const bad of ["openai:team9", "../x", "a/b", ".."]) {
      const out = await sb.run(
        ["models", "auth", "add", "--provider", "openai", "--profile", bad],
        "sk",
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(`--profile "${bad}" is not a valid state-dir profile name`);
    }
    const colon = await sb.run(["--profile", "openai:team9", "config", "file"]);
    expect(colon.stderr).toContain("looks like an auth profile id: use --profile-id");
    expect(existsSync(join(sb.home, ".openclaw-openai:team9"))).toBe(false);
    expect(existsSync(join(sb.home, "x"))).toBe(false);
  });

  it("refuses an OPENCLAW_PROFILE with separators or .. (clear error, exit 2, nothing written)", async () => {
    for (const bad of ["../x", "a/b", "..", "x\\y", "team:9"]) {
      const sb = profileSandbox();
      const env = sb.env as Record<string, string | undefined>;
      env.OPENCLAW_PROFILE = bad;
      for (const argv of [
        ["config", "file"],
        ["models", "auth", "add", "--provider", "openai"],
      ]) {
        const out = await sb.run(argv, "sk");
        expect(out.code, `${bad}: ${argv.join(" ")}`).toBe(2);
        expect(out.stderr).toContain(
          `OPENCLAW_PROFILE "${bad}" is not a valid state-dir profile name`,
        );
      }
      expect(readdirSync(sb.home)).toEqual([]);
      expect(() => resolveStatePaths({ env })).toThrow(InvalidProfileNameError);
      // --profile wins over the env var, so a good flag makes the bad env irrelevant.
      const good = await sb.run(["--profile", "work", "config", "file"]);
      expect(good.stdout).toBe(`${join(sb.home, ".openclaw-work", "openclaw.json")}\n`);
    }
    expect(resolveStatePaths({ env: { HOME: "/h", OPENCLAW_PROFILE: "lab.2" } }).stateDir).toBe(
      "/h/.openclaw-lab.2",
    );
  });

  it("finds the last --profile and whether it follows the command name", () => {
    expect(findProfileFlag(["--profile", "a", "status"])).toEqual({
      value: "a",
      afterCommand: false,
    });
    expect(findProfileFlag(["status", "--profile=b"])).toEqual({ value: "b", afterCommand: true });
    expect(findProfileFlag(["--no-color", "--profile", "a", "x", "--profile", "c"])).toEqual({
      value: "c",
      afterCommand: true,
    });
    expect(findProfileFlag(["x", "--", "--profile", "z"])).toBeUndefined();
  });

  it("no subcommand option reuses a global flag (commander would hand it to the root)", async () => {
    const tree = new Command("x").option("--profile <n>").version("1.0.0", "-V, --version");
    tree.command("models").command("auth").command("add").option("--profile <name>");
    tree.command("status").option("-V, --verbose");
    expect(findShadowedGlobalOptions(tree)).toEqual(["models auth add --profile", "status -V"]);
    // The real tree passes the same check on every run (it throws on a shadowed option).
    const sb = createCliSandbox();
    expect((await sb.run(["--help"])).code).toBe(0);
    expect((await sb.run(["models", "auth", "add", "--help"])).stdout).toContain("--profile-id");
  });
});
