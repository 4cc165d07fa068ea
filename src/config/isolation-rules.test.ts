import { join } from "node:path";
import Type from "typebox";
import { describe, expect, it } from "vitest";
import { resolveStatePaths } from "./paths.js";
import { validateConfig } from "./validate.js";

/** Permissive schema: these tests are about the semantic rules only. */
const schema = Type.Unknown();
const paths = resolveStatePaths({ env: { HOME: "/home/u", OPENCLAW_STATE_DIR: "/state" } });

function issuesOf(config: unknown) {
  return validateConfig(config, { paths, schema }).issues.map(({ severity, path, message }) => ({
    severity,
    path,
    message,
  }));
}

describe("isolation rules", () => {
  it("accepts a clean multi-agent config", () => {
    const config = {
      agents: { list: [{ id: "home", default: true }, { id: "work" }] },
      bindings: [
        { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100" } } },
      ],
      channels: { telegram: { dmPolicy: "open", allowFrom: ["*"] } },
    };
    expect(validateConfig(config, { paths, schema })).toEqual({ valid: true, issues: [] });
  });

  it("rejects two agents sharing a resolved agentDir", () => {
    const config = {
      agents: {
        list: [
          { id: "a", agentDir: "~/shared" },
          { id: "b", agentDir: "/home/u/shared/" },
        ],
      },
    };
    expect(issuesOf(config)).toEqual([
      {
        severity: "error",
        path: "agents.list[1].agentDir",
        message:
          'agents "a" and "b" share agentDir "/home/u/shared": auth profiles and sessions would collide',
      },
    ]);
  });

  it("catches an explicit agentDir equal to another agent's default one", () => {
    const config = {
      agents: {
        list: [{ id: "a" }, { id: "b", agentDir: join("/state", "agents", "a", "agent") }],
      },
    };
    expect(issuesOf(config)).toMatchObject([
      { severity: "error", path: "agents.list[1].agentDir" },
    ]);
  });

  it("rejects duplicate ids after normalization and warns about unnormalized ids", () => {
    const config = { agents: { list: [{ id: "work" }, { id: "Work" }] } };
    expect(issuesOf(config)).toEqual([
      {
        severity: "warning",
        path: "agents.list[1].id",
        message: 'agent id "Work" is not normalized; it will be used as "work"',
      },
      {
        severity: "error",
        path: "agents.list[1].id",
        message: 'duplicate agent id "work" (also agents.list[0]); every agent needs its own id',
      },
    ]);
  });

  it("rejects a binding to an unknown agent, saying routing falls back to the default", () => {
    const config = {
      agents: { list: [{ id: "home" }, { id: "work", default: true }] },
      bindings: [{ agentId: "wrok", match: { channel: "x" } }],
    };
    const [issue] = issuesOf(config);
    expect(issue).toMatchObject({ severity: "error", path: "bindings[0].agentId" });
    expect(issue.message).toContain('fall back to the default agent "work"');
    expect(issue.message).toContain('Did you mean "work"?');
  });

  it("allows only main when the roster is empty", () => {
    expect(issuesOf({ bindings: [{ agentId: "main", match: { channel: "x" } }] })).toEqual([]);
    const [issue] = issuesOf({ bindings: [{ agentId: "ops", match: { channel: "x" } }] });
    expect(issue).toMatchObject({ severity: "error", path: "bindings[0].agentId" });
    expect(issue.message).toContain('only "main" exists');
  });

  it("warns when two agents share a workspace", () => {
    const config = {
      agents: {
        list: [
          { id: "a", workspace: "/w" },
          { id: "b", workspace: "/w" },
        ],
      },
    };
    expect(issuesOf(config)).toEqual([
      {
        severity: "warning",
        path: "agents.list[1].workspace",
        message:
          'agents "a" and "b" share workspace "/w": their bootstrap files and memory would mix',
      },
    ]);
  });

  it("warns about several default agents, naming the first as the winner", () => {
    const config = {
      agents: { list: [{ id: "a" }, { id: "b", default: true }, { id: "c", default: true }] },
    };
    expect(issuesOf(config)).toEqual([
      {
        severity: "warning",
        path: "agents.list[2].default",
        message:
          'more than one agent has default: true; "b" (agents.list[1]) wins because it comes first',
      },
    ]);
  });

  it("rejects agents.list together with agents.entries", () => {
    const config = { agents: { list: [{ id: "a" }], entries: { b: {} } } };
    expect(issuesOf(config)).toMatchObject([{ severity: "error", path: "agents.entries" }]);
  });

  it("checks agents.entries (keyed by id) too", () => {
    const config = { agents: { entries: { a: { agentDir: "/x" }, b: { agentDir: "/x" } } } };
    expect(issuesOf(config)).toMatchObject([
      { severity: "error", path: "agents.entries.b.agentDir" },
    ]);
  });

  it('requires "*" in allowFrom for dmPolicy "open" at channel and account level', () => {
    const config = {
      channels: {
        telegram: {
          dmPolicy: "open",
          allowFrom: ["tg:1"],
          accounts: {
            ok: { allowFrom: ["*"] },
            bad: { dmPolicy: "open", allowFrom: [1] },
            inherits: {},
          },
        },
        discord: { dmPolicy: "allowlist", accounts: { main: { dmPolicy: "open" } } },
        slack: { dmPolicy: "open", allowFrom: ["*"] },
      },
    };
    expect(issuesOf(config).map((issue) => `${issue.severity} ${issue.path}`)).toEqual([
      "error channels.telegram.dmPolicy",
      "error channels.telegram.accounts.bad.dmPolicy",
      "error channels.discord.accounts.main.dmPolicy",
    ]);
    expect(issuesOf(config)[0].message).toContain('requires "*" in channels.telegram.allowFrom');
  });

  it("rejects a binding peer kind outside direct/dm/group/channel", () => {
    const config = {
      bindings: [{ agentId: "main", match: { channel: "x", peer: { kind: "grop", id: "1" } } }],
    };
    expect(issuesOf(config)).toEqual([
      {
        severity: "error",
        path: "bindings[0].match.peer.kind",
        message:
          'peer kind must be one of "direct", "dm", "group", "channel" (got "grop") — did you mean "group"?',
      },
    ]);
  });

  it("survives garbage shapes without throwing", () => {
    const config = {
      agents: { list: ["x", null, { id: 5, agentDir: 7 }] },
      bindings: [1, { match: "x" }],
      channels: { a: 1 },
    };
    expect(() => validateConfig(config, { paths, schema })).not.toThrow();
    expect(() => validateConfig("nope", { paths, schema })).not.toThrow();
  });

  it("attaches positions through the locate callback, falling back to the parent", () => {
    const config = {
      agents: {
        list: [
          { id: "a", agentDir: "/x" },
          { id: "b", agentDir: "/x" },
        ],
      },
    };
    const located = validateConfig(config, {
      paths,
      schema,
      locate: (path) =>
        path === "agents.list[1]" ? { file: "/c/openclaw.json", line: 9, column: 7 } : undefined,
    });
    expect(located.issues[0]).toMatchObject({ file: "/c/openclaw.json", line: 9, column: 7 });
  });

  it("says nothing about a sandbox that can be set up (the mode is honoured)", () => {
    const config = {
      agents: {
        defaults: { sandbox: { mode: "non-main" } },
        list: [
          { id: "main" },
          { id: "work", sandbox: { mode: "off" } },
          { id: "family", sandbox: { mode: "all", scope: "agent" } },
        ],
      },
    };
    expect(issuesOf(config).filter((issue) => issue.message.includes("sandbox"))).toEqual([]);
    expect(validateConfig(config, { paths, schema }).valid).toBe(true);
  });

  it("warns at the mode key of each sandboxed agent whose sandbox cannot be set up", () => {
    const bad = { sandbox: { mode: "all", docker: { binds: ["/srv/src"] } } };
    expect(issuesOf({ agents: { defaults: bad } })).toEqual([
      expect.objectContaining({ severity: "warning", path: "agents.defaults.sandbox.mode" }),
    ]);
    const entries = { agents: { entries: { "my.fam": bad } } };
    const issues = issuesOf(entries).filter((issue) => issue.message.includes("sandbox"));
    expect(issues.map((issue) => issue.path)).toEqual(['agents.entries["my.fam"].sandbox.mode']);
    expect(issues[0]!.message).toContain(
      'agent "my-fam" is sandboxed but its sandbox cannot be set up (its sandboxed tools will refuse): agents.entries["my.fam"].sandbox.docker.binds: docker.binds entry "/srv/src" is not "host:container[:ro|rw]".',
    );
  });
});
