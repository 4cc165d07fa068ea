// `--workspace` in onboard, setup and agents add refuses `/`, the home dir, the state dir and folders
// holding them (usage error, nothing seeded there, config untouched); a folder of its own is fine.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { workspaceProblem } from "./workspace-guard.js";

const ONBOARD = ["onboard", "--non-interactive", "--accept-risk", "--auth-choice", "skip"];

describe("workspace folder guard", () => {
  it("names why /, ~, the state dir and their parents are not workspaces", () => {
    const paths = { home: "/h/u", stateDir: "/h/u/.openclaw" };
    expect(workspaceProblem("/", paths)).toContain("it is the file system root");
    expect(workspaceProblem("~", paths)).toContain("it is or contains the home dir /h/u");
    expect(workspaceProblem("/h", paths)).toContain("home dir");
    expect(workspaceProblem("~/.openclaw", paths)).toContain("state dir");
    expect(workspaceProblem("~/.openclaw/workspace", paths)).toBeUndefined();
    expect(workspaceProblem("~/projects/bot", paths)).toBeUndefined();
  });

  it("onboard, setup and agents add refuse them without seeding or writing", async () => {
    const sb = createCliSandbox();
    const stateParent = join(sb.home, "srv");
    const env = sb.env as Record<string, string | undefined>;
    env.OPENCLAW_STATE_DIR = join(stateParent, "state");
    for (const dir of ["~", sb.home, env.OPENCLAW_STATE_DIR, stateParent]) {
      for (const argv of [
        [...ONBOARD, "--workspace", dir],
        ["setup", "--workspace", dir],
        ["agents", "add", "ops", "--non-interactive", "--workspace", dir],
      ]) {
        const res = await sb.run(argv);
        expect(res.code, argv.join(" ")).toBe(2);
        expect(res.stderr, argv.join(" ")).toContain(
          `--workspace "${dir}": not a workspace folder`,
        );
      }
    }
    expect(readdirSync(sb.home)).toEqual([]);
    const ok = await sb.run([...ONBOARD, "--workspace", "~/bot"]);
    expect(ok.code).toBe(0);
    expect(existsSync(join(sb.home, "bot", "AGENTS.md"))).toBe(true);
  });

  it("config set refuses pointing a workspace at ~ or the state dir, keeping the file", async () => {
    const sb = createCliSandbox();
    const text = JSON.stringify({ agents: { list: [{ id: "main" }, { id: "ops" }] } });
    sb.writeConfig(text);
    for (const [path, value] of [
      ["agents.defaults.workspace", "~"],
      ["agents.list[1].workspace", sb.stateDir],
      ["agents.list[0].workspace", sb.home],
    ]) {
      const res = await sb.run(["config", "set", path!, value!]);
      expect(res.code, `${path} ${value}`).toBe(1);
      expect(res.stderr).toContain("is not a workspace folder");
      expect(readFileSync(sb.configPath, "utf8")).toBe(text);
    }
    expect((await sb.run(["config", "set", "agents.defaults.workspace", "~/bots"])).code).toBe(0);
  });
});
