import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const TWO_AGENTS = `{
  // home and work, two agents
  agents: {
    list: [
      { id: "home", default: true, workspace: "~/ws-home" },
      { id: "work", workspace: "~/ws-work", model: { primary: "anthropic/claude-opus-4-5", fallbacks: ["openai/gpt-5.2"] } },
    ],
  },
  bindings: [
    { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
    { agentId: "work", match: { channel: "whatsapp", accountId: "biz" }, comment: "business number" },
    { agentId: "work", match: { channel: "whatsapp", accountId: "personal", peer: { kind: "group", id: "120@g.us" } } },
  ],
}
`;

describe("pincer agents list", () => {
  it("shows the implicit main agent when there is no config", async () => {
    const sb = createCliSandbox();
    const res = await sb.run(["agents", "list", "--json"]);
    expect(res.code).toBe(0);
    const agents = JSON.parse(res.stdout);
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({
      id: "main",
      isDefault: true,
      workspace: join(sb.stateDir, "workspace"),
      agentDir: join(sb.stateDir, "agents", "main", "agent"),
    });
  });

  it("lists agents with their rules and tiers under --bindings", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(TWO_AGENTS);
    const res = await sb.run(["agents", "list", "--bindings"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("- home [default]");
    expect(res.stdout).toContain("workspace  ~/ws-home");
    expect(res.stdout).toContain(
      "model      anthropic/claude-opus-4-5 (fallbacks: openai/gpt-5.2)",
    );
    expect(res.stdout).toContain(
      "bindings[1] whatsapp accountId=biz  (binding.account)  # business number",
    );
    expect(res.stdout).toContain(
      "bindings[2] whatsapp accountId=personal peer=group:120@g.us  (binding.peer)",
    );
    const json = JSON.parse((await sb.run(["agents", "list", "--bindings", "--json"])).stdout);
    expect(json[1].bindings.map((b: { index: number }) => b.index)).toEqual([1, 2]);
  });

  it("refuses an invalid config, printing its errors", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(
      `{ agents: { list: [{ id: "a", agentDir: "/x" }, { id: "b", agentDir: "/x" }] } }`,
    );
    const res = await sb.run(["agents", "list"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("agentDir");
    expect(res.stderr).toContain("invalid");
  });
});

describe("pincer agents add", () => {
  it("adds an agent with bindings, creates its dirs and keeps main the default", async () => {
    const sb = createCliSandbox();
    const res = await sb.run([
      "agents",
      "add",
      "work",
      "--bind",
      "telegram:alerts",
      "--bind",
      "whatsapp",
      "--model",
      "anthropic/claude-opus-4-5",
    ]);
    expect(res.code).toBe(0);
    const list = JSON.parse((await sb.run(["agents", "list", "--json"])).stdout);
    expect(list.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      ["main", true],
      ["work", false],
    ]);
    expect(existsSync(join(sb.stateDir, "workspace-work"))).toBe(true);
    expect(statSync(join(sb.stateDir, "agents", "work", "agent")).mode & 0o777).toBe(0o700);
    expect(existsSync(join(sb.stateDir, "agents", "work", "sessions"))).toBe(true);
    const route = JSON.parse(
      (await sb.run(["agents", "route", "--channel", "telegram", "--account", "alerts", "--json"]))
        .stdout,
    );
    expect(route.route).toMatchObject({ agentId: "work", matchedBy: "binding.account" });
  });

  it("keeps comments and untouched keys of an existing config", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(TWO_AGENTS);
    expect((await sb.run(["agents", "add", "family", "--workspace", "~/ws-family"])).code).toBe(0);
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// home and work, two agents");
    expect(text).toContain('comment: "business number"');
    expect(text).toMatch(/id: "family"/);
    expect(readFileSync(`${sb.configPath}.bak`, "utf8")).toBe(TWO_AGENTS);
  });

  it("refuses an existing id, a malformed id and a bad --bind", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(TWO_AGENTS);
    const dup = await sb.run(["agents", "add", "work"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('agent "work" already exists');
    const bad = await sb.run(["agents", "add", "My Agent"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('use "my-agent"');
    const bind = await sb.run(["agents", "add", "x", "--bind", "telegram:a:b"]);
    expect(bind.code).toBe(2);
    expect(readFileSync(sb.configPath, "utf8")).toBe(TWO_AGENTS);
  });
});

describe("pincer agents route", () => {
  it("explains the matched tier and why more specific tiers did not match", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(TWO_AGENTS);
    const res = await sb.run([
      "agents",
      "route",
      "--channel",
      "whatsapp",
      "--account",
      "personal",
      "--peer",
      "group:999@g.us",
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("agent        home");
    expect(res.stdout).toContain("session key  agent:home:whatsapp:group:999@g.us");
    expect(res.stdout).toContain("matched by   binding.account (bindings[0])");
    expect(res.stdout).toMatch(/binding\.peer\s+.*/);
    const peer = await sb.run([
      "agents",
      "route",
      "--channel",
      "whatsapp",
      "--account",
      "personal",
      "--peer",
      "group:120@g.us",
      "--json",
    ]);
    expect(JSON.parse(peer.stdout)).toMatchObject({
      route: { agentId: "work", matchedBy: "binding.peer" },
      matchedBindingIndex: 2,
    });
  });

  it("answers JSONL on stdin, line by line, reporting bad lines in-band", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(TWO_AGENTS);
    const input = [
      JSON.stringify({ channel: "whatsapp", accountId: "biz", peer: "direct:+1" }),
      "",
      JSON.stringify({
        channel: "whatsapp",
        peer: { kind: "group", id: "g" },
        cfg: { agents: { list: [{ id: "solo" }] } },
      }),
      JSON.stringify({ peer: "direct:1" }),
      "{oops",
    ].join("\n");
    const res = await sb.run(["agents", "route", "--stdin"], input);
    expect(res.code).toBe(1);
    const lines = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      agentId: "work",
      sessionKey: "agent:work:main",
      matchedBy: "binding.account",
    });
    expect(lines[1]).toMatchObject({ agentId: "solo", sessionKey: "agent:solo:whatsapp:group:g" });
    expect(lines[2]).toEqual({ line: 4, error: '"channel" is required' });
    expect(lines[3].line).toBe(5);
  });

  it("is a usage error without --channel or with a bad --peer", async () => {
    const sb = createCliSandbox();
    expect((await sb.run(["agents", "route"])).code).toBe(2);
    const res = await sb.run(["agents", "route", "--channel", "x", "--peer", "thread:1"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("KIND direct, dm, group or channel");
  });
});
