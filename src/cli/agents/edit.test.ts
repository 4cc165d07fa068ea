// `pincer agents add [name] --non-interactive`, `agents delete`, `agents bind|unbind|bindings` through
// the real argv parser (OpenClaw's shapes), writing the config through the comment-keeping editor.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const CONFIG = `{
  // two agents
  agents: {
    list: [
      { id: "main", default: true },
      { id: "work", workspace: "~/ws-work" },
    ],
  },
  bindings: [
    { agentId: "work", match: { channel: "telegram" } },
    { agentId: "main", match: { channel: "whatsapp" } },
    { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100" } } },
  ],
}
`;

function sandbox(text = CONFIG) {
  const sb = createCliSandbox();
  sb.writeConfig(text);
  const bindings = async () =>
    JSON.parse((await sb.run(["agents", "bindings", "--json"])).stdout).bindings.map(
      (b: { agentId: string; match: Record<string, unknown> }) => [b.agentId, b.match],
    );
  const route = async (channel: string, account?: string) =>
    JSON.parse(
      (
        await sb.run([
          "agents",
          "route",
          "--channel",
          channel,
          ...(account ? ["--account", account] : []),
          "--json",
        ])
      ).stdout,
    ).route.agentId;
  return { sb, bindings, route, text: () => readFileSync(sb.configPath, "utf8") };
}

describe("pincer agents add [name] --non-interactive", () => {
  it("never waits for a name: a usage error names what to pass", async () => {
    const { sb, text } = sandbox();
    const plain = await sb.run(["agents", "add"]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain("the agent name is required (not a terminal, nothing to ask)");
    expect(plain.stderr).toContain("pincer agents add <name> [--workspace DIR]");
    const flagged = await sb.run(["agents", "add", "--non-interactive", "--workspace", "/tmp/x"]);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain("--non-interactive needs the agent name");
    expect(text()).toBe(CONFIG);
    const ok = await sb.run([
      "agents",
      "add",
      "ops",
      "--non-interactive",
      "--bind",
      "slack",
      "--json",
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: "ops", bindings: [{ channel: "slack" }] });
    const taken = await sb.run(["agents", "add", "x", "--bind", "whatsapp", "--non-interactive"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("whatsapp is already bound to agent main");
  });
});

describe("pincer agents bind / unbind / bindings", () => {
  it("bind narrows the agent's channel binding in place, refuses another agent's, defaults to the default agent", async () => {
    const { sb, bindings, route, text } = sandbox();
    const narrowed = await sb.run(["agents", "bind", "--agent", "work", "--bind", "telegram:ops"]);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout).toContain("bound telegram:ops → work");
    expect((await bindings())[0]).toEqual(["work", { channel: "telegram", accountId: "ops" }]);
    expect(await route("telegram", "ops")).toBe("work");
    expect(text()).toContain("// two agents");

    const before = text();
    const taken = await sb.run(["agents", "bind", "--agent", "work", "--bind", "whatsapp"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(
      "whatsapp is already bound to agent main: unbind it there first",
    );
    expect(text()).toBe(before);

    const again = await sb.run([
      "agents",
      "bind",
      "--agent",
      "work",
      "--bind",
      "telegram:ops",
      "--json",
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], kept: [{ channel: "telegram" }] });
    expect(await sb.run(["agents", "bind", "--bind", "discord:*"])).toMatchObject({ code: 0 });
    expect((await bindings()).at(-1)).toEqual(["main", { channel: "discord", accountId: "*" }]);
    expect((await sb.run(["agents", "bind", "--agent", "nobody", "--bind", "x"])).stderr).toContain(
      'unknown agent "nobody" (agents: main, work)',
    );
    expect((await sb.run(["agents", "bind", "--agent", "work"])).code).toBe(2);
  });

  it("unbind removes exactly the --bind given (or --all), never both; an absent binding is an error", async () => {
    const { sb, bindings, text } = sandbox();
    const missing = await sb.run(["agents", "unbind", "--agent", "work", "--bind", "telegram:ops"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("agent work has no binding telegram:ops");
    expect(text()).toBe(CONFIG);
    expect(
      (await sb.run(["agents", "unbind", "--agent", "work", "--all", "--bind", "x"])).code,
    ).toBe(2);
    expect((await sb.run(["agents", "unbind", "--agent", "work"])).code).toBe(2);

    const one = await sb.run(["agents", "unbind", "--agent", "work", "--bind", "telegram"]);
    expect(one.stdout).toContain("unbound telegram from work");
    expect(await bindings()).toEqual([
      ["main", { channel: "whatsapp" }],
      ["work", { channel: "telegram", peer: { kind: "group", id: "-100" } }],
    ]);
    const listed = JSON.parse(
      (await sb.run(["agents", "bindings", "--agent", "work", "--json"])).stdout,
    );
    expect(listed).toMatchObject({ agentId: "work", bindings: [{ index: 1, agentId: "work" }] });
    const all = await sb.run(["agents", "unbind", "--agent", "work", "--all", "--json"]);
    expect(JSON.parse(all.stdout).removed).toHaveLength(1);
    expect(await bindings()).toEqual([["main", { channel: "whatsapp" }]]);
    expect(text()).toContain("// two agents");
  });
});

describe("pincer agents delete", () => {
  it("removes the entry and its bindings, keeps the files, and guards the default and last agent", async () => {
    const { sb, bindings, text } = sandbox();
    expect((await sb.run(["agents", "add", "ops", "--bind", "slack"])).code).toBe(0);
    const workspace = JSON.parse((await sb.run(["agents", "list", "--json"])).stdout).find(
      (a: { id: string }) => a.id === "ops",
    ).workspace as string;
    expect(existsSync(workspace)).toBe(true);

    const deleted = await sb.run(["agents", "delete", "ops", "--json"]);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({
      deleted: true,
      agentId: "ops",
      removedBindings: 1,
      defaultAgentId: "main",
      kept: { workspace },
    });
    expect(existsSync(workspace)).toBe(true);
    const work = await sb.run(["agents", "delete", "work"]);
    expect(work.stdout).toContain("deleted agent work");
    expect(work.stdout).toContain("(and 2 bindings)");
    expect(work.stdout).toContain("kept on disk");
    expect(await bindings()).toEqual([["main", { channel: "whatsapp" }]]);
    expect(text()).toContain("// two agents");

    const only = await sb.run(["agents", "delete", "main"]);
    expect(only.code).toBe(1);
    expect(only.stderr).toContain("agent main is the only agent");
    expect(only.stderr).toContain("pass --force");
    expect((await sb.run(["agents", "delete", "main", "--force"])).code).toBe(0);
    expect(await bindings()).toEqual([]);
    const none = await sb.run(["agents", "delete", "main", "--force"]);
    expect(none.stderr).toContain('no agents roster: the only agent is the implicit "main"');
  });

  it("the default agent needs --force, naming the agent that takes over", async () => {
    const { sb } = sandbox();
    const refused = await sb.run(["agents", "delete", "main"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "agent main is the default agent (unmatched traffic and CLI commands go to it); without it work becomes the default",
    );
    const forced = await sb.run(["agents", "delete", "main", "--force", "--json"]);
    expect(JSON.parse(forced.stdout)).toMatchObject({ removedBindings: 1, defaultAgentId: "work" });
    expect((await sb.run(["agents", "delete", "nobody"])).stderr).toContain(
      'unknown agent "nobody"',
    );
  });

  it("deletes from agents.entries (the keyed roster) too", async () => {
    const { sb, text } = sandbox(`{
  agents: { entries: { main: {}, "side-kick": { workspace: "~/ws-side" } } },
  bindings: [{ agentId: "side-kick", match: { channel: "telegram" } }],
}
`);
    const out = await sb.run(["agents", "delete", "side-kick", "--json"]);
    expect(JSON.parse(out.stdout)).toMatchObject({ agentId: "side-kick", removedBindings: 1 });
    expect(text()).not.toContain("side-kick");
    expect(text()).toContain("main: {}");
  });
});
