import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { evaluateSkillGates, type GateInput, hasBinary, readSkillGates } from "./gating.js";
import type { SkillGates } from "./types.js";

/** A temp PATH folder holding the named executables (plus one non-executable file, `noexec`). */
function fakePath(bins: string[]): string {
  const dir = makeTempDir("pincer-bins-");
  for (const bin of bins) {
    writeFileSync(join(dir, bin), "#!/bin/sh\n");
    chmodSync(join(dir, bin), 0o755);
  }
  writeFileSync(join(dir, "noexec"), "");
  chmodSync(join(dir, "noexec"), 0o644);
  mkdirSync(join(dir, "adir"));
  return dir;
}

function gates(metadata: Record<string, unknown>): SkillGates {
  const read = readSkillGates({ openclaw: metadata });
  if ("error" in read) throw new Error(read.error);
  return read;
}

function input(overrides: Partial<GateInput> & { gates: SkillGates }): GateInput {
  return {
    name: "demo",
    source: "workspace",
    config: {},
    env: {},
    platform: "linux",
    binaries: { path: fakePath(["git"]), platform: "linux", memo: new Map() },
    ...overrides,
  };
}

describe("readSkillGates", () => {
  it("normalizes missing metadata to no gates", () => {
    expect(readSkillGates(undefined)).toEqual({
      always: false,
      os: [],
      requires: { bins: [], anyBins: [], env: [], config: [] },
    });
  });

  it("reads openclaw and legacy clawdbot metadata; a string is a one-item list", () => {
    expect(gates({ requires: { bins: "gh" }, os: ["darwin"], primaryEnv: "X" })).toMatchObject({
      os: ["darwin"],
      requires: { bins: ["gh"] },
      primaryEnv: "X",
    });
    expect(readSkillGates({ clawdbot: { always: true } })).toMatchObject({ always: true });
  });

  it("rejects wrong types instead of ignoring them", () => {
    expect(readSkillGates({ openclaw: { requires: { bins: [1] } } })).toEqual({
      error: "metadata.openclaw.requires.bins must be a list of strings",
    });
    expect(readSkillGates({ openclaw: "yes" })).toEqual({
      error: "metadata.openclaw must be an object",
    });
    expect(readSkillGates({ openclaw: { always: "yes" } })).toEqual({
      error: "metadata.openclaw.always must be true or false",
    });
  });
});

describe("hasBinary", () => {
  it("finds executables on PATH only", () => {
    const dir = fakePath(["gh"]);
    const lookup = { path: `/nonexistent:${dir}`, platform: "linux", memo: new Map() };
    expect(hasBinary("gh", lookup)).toBe(true);
    expect(hasBinary("noexec", lookup)).toBe(false);
    expect(hasBinary("adir", lookup)).toBe(false);
    expect(hasBinary("missing", lookup)).toBe(false);
    expect(lookup.memo.get("gh")).toBe(true);
  });

  it("tries PATHEXT extensions and ; separators on Windows", () => {
    const dir = fakePath(["tool.EXE"]);
    const lookup = { path: `C:\\nope;${dir}`, platform: "win32", pathExt: ".EXE", memo: new Map() };
    expect(hasBinary("tool", lookup)).toBe(true);
  });
});

describe("evaluateSkillGates", () => {
  it("is ready when every requirement is met", () => {
    const verdict = evaluateSkillGates(
      input({
        gates: gates({
          requires: {
            bins: ["git"],
            anyBins: ["nope", "git"],
            env: ["TOKEN"],
            config: ["browser.enabled"],
          },
        }),
        env: { TOKEN: "t" },
        config: { browser: { enabled: true } } as GateInput["config"],
      }),
    );
    expect(verdict).toEqual({ status: "ready" });
  });

  it("names every missing requirement", () => {
    const verdict = evaluateSkillGates(
      input({
        gates: gates({
          requires: {
            bins: ["gh", "git", "jq"],
            anyBins: ["python3", "python"],
            env: ["GITHUB_TOKEN"],
            config: ["browser.enabled"],
          },
        }),
        env: { GITHUB_TOKEN: "  " },
        config: { browser: { enabled: false } } as GateInput["config"],
      }),
    );
    expect(verdict).toEqual({
      status: "blocked",
      reason:
        "missing binaries: gh, jq; missing binary: one of python3, python; missing env: GITHUB_TOKEN; config not set: browser.enabled",
    });
    expect(evaluateSkillGates(input({ gates: gates({ requires: { bins: ["gh"] } }) })).reason).toBe(
      "missing binary: gh",
    );
  });

  it("accepts env from skills.entries.<name>.env and apiKey for primaryEnv", () => {
    const needs = gates({ requires: { env: ["A", "B"] }, primaryEnv: "B" });
    const config = { skills: { entries: { demo: { env: { A: "1" }, apiKey: "k" } } } };
    expect(evaluateSkillGates(input({ gates: needs, config }))).toEqual({ status: "ready" });
    const noKey = { skills: { entries: { demo: { env: { A: "1" } } } } };
    expect(evaluateSkillGates(input({ gates: needs, config: noKey })).reason).toBe(
      "missing env: B",
    );
  });

  it("gates on os before always, and always skips requirements", () => {
    const mac = gates({ os: ["darwin"], always: true });
    expect(evaluateSkillGates(input({ gates: mac }))).toEqual({
      status: "blocked",
      reason: "os linux not in [darwin]",
    });
    const always = gates({ always: true, requires: { bins: ["gh"] } });
    expect(evaluateSkillGates(input({ gates: always }))).toEqual({ status: "ready" });
  });

  it("lets config disable a skill, even an always one", () => {
    const always = gates({ always: true });
    const config = { skills: { entries: { demo: { enabled: false } } } };
    expect(evaluateSkillGates(input({ gates: always, config }))).toEqual({
      status: "disabled",
      reason: "disabled in config (skills.entries.demo.enabled)",
    });
    const keyed = gates({ skillKey: "demo-key" });
    const byKey = { skills: { entries: { "demo-key": { enabled: false } } } };
    expect(evaluateSkillGates(input({ gates: keyed, config: byKey })).status).toBe("disabled");
  });

  it("applies skills.allowBundled to bundled skills only", () => {
    const none = gates({});
    const config = { skills: { allowBundled: ["other"] } };
    expect(evaluateSkillGates(input({ gates: none, config, source: "bundled" }))).toEqual({
      status: "disabled",
      reason: "bundled skill not in skills.allowBundled",
    });
    expect(evaluateSkillGates(input({ gates: none, config, source: "managed" })).status).toBe(
      "ready",
    );
    const allowed = { skills: { allowBundled: ["demo"] } };
    expect(
      evaluateSkillGates(input({ gates: none, config: allowed, source: "bundled" })).status,
    ).toBe("ready");
  });

  it("applies the agent's skills allowlist", () => {
    const verdict = evaluateSkillGates(input({ gates: gates({}), agentSkills: ["other"] }));
    expect(verdict.status).toBe("disabled");
    expect(verdict.reason).toMatch(/agents\.list\[\]\.skills/);
  });
});
