// The built `pincer` executable (what `npm install` produces via `prepare`) runs as a real process.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const bin = join(root, pkg.bin.pincer);

function pincer(args: string[], input = "") {
  const home = makeTempDir("pincer-proc-");
  const env = { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: join(home, ".openclaw") };
  return spawnSync(process.execPath, [bin, ...args], { env, input, encoding: "utf8" });
}

describe("pincer executable", () => {
  it("exists after install (run `npm run build` if this fails)", () => {
    expect(existsSync(bin)).toBe(true);
  });

  it("prints help and exits 0", () => {
    const res = pincer(["--help"]);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain("Usage: pincer");
  });

  it("lists the default agent from a fresh state dir", () => {
    const res = pincer(["agents", "list", "--json"]);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)[0]).toMatchObject({ id: "main", isDefault: true });
  });

  it("routes JSONL from stdin", () => {
    const res = pincer(
      ["agents", "route", "--stdin"],
      '{"channel":"telegram","peer":"group:-100"}\n',
    );
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ sessionKey: "agent:main:telegram:group:-100" });
  });

  it("exits 2 on a usage error", () => {
    expect(pincer(["agents", "route", "--bogus"]).status).toBe(2);
  });
});

describe("package root", () => {
  it("exports the library API from the built entry point", async () => {
    const mod = await import(join(root, "dist", "index.js"));
    for (const name of [
      "loadConfig",
      "validateConfig",
      "resolveAgentRoute",
      "buildAgentSessionKey",
      "resolveDefaultAgentId",
      "normalizeAgentId",
      "normalizeAccountId",
      "listAgents",
    ]) {
      expect(typeof mod[name], name).toBe("function");
    }
  });
});
