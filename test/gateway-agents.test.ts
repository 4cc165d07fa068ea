// agents.list (roster with directories, sandbox, tool policy and bindings), agents.route (the route
// tester: `pincer agents route` over the gateway) and agents.files.list/get/set (bootstrap files,
// only known names, never outside the workspace, writes atomic, set needs operator.admin).
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { explainAgentRoute } from "../src/routing/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
let client: TestClient;
const bindings: NonNullable<OpenClawConfig["bindings"]> = [
  { agentId: "work", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
  { agentId: "work", match: { channel: "discord", guildId: "g1", roles: ["r1"] }, comment: "ops" },
];

beforeAll(async () => {
  box = await createGatewaySandbox({
    config: () => ({
      agents: {
        list: [{ id: "main" }, { id: "work", sandbox: { mode: "all" }, tools: { deny: ["exec"] } }],
      },
      bindings,
    }),
  });
  client = await box.connect();
});
afterAll(async () => box?.close());

function errorOf(frame: Loose): { code: string; message: string } {
  expect(frame.ok, JSON.stringify(frame.payload)).toBe(false);
  return frame.error as { code: string; message: string };
}

describe("agents.list", () => {
  it("reports directories, sandbox, tool policy and the bindings routing to each agent", async () => {
    const list = payloadOf(await client.request("agents.list"));
    const work = list.agents.find((agent: Loose) => agent.id === "work");
    expect(work).toMatchObject({
      isDefault: false,
      workspace: expect.any(String),
      agentDir: expect.stringContaining("work"),
      sandbox: { mode: "all", source: "agents.list[1].sandbox.mode", hostTools: "sandboxed" },
      tools: { profile: "full" },
      bindings: [
        { index: 0, tier: "binding.peer", match: bindings[0]!.match },
        { index: 1, tier: "binding.guild+roles", comment: "ops" },
      ],
    });
    expect(work.tools.allowed).not.toContain("exec");
    const main = list.agents.find((agent: Loose) => agent.id === "main");
    expect(main).toMatchObject({ isDefault: true, bindings: [], sandbox: { mode: "off" } });
    expect(main.tools.allowed).toContain("exec");
  });
});

describe("agents.route", () => {
  it("answers like pincer agents route: agent, session key, tier and the reasoning", async () => {
    const question = { channel: "telegram", peer: { kind: "direct", id: "42" } } as const;
    const answer = payloadOf(await client.request("agents.route", question));
    expect(answer.route).toMatchObject({
      agentId: "work",
      matchedBy: "binding.peer",
      sessionKey: "agent:work:main",
    });
    expect(answer.matchedBindingIndex).toBe(0);
    const cfg = JSON.parse(readFileSync(box.configPath, "utf8"));
    expect(answer).toEqual(JSON.parse(JSON.stringify(explainAgentRoute({ cfg, ...question }))));
    const roles = payloadOf(
      await client.request("agents.route", {
        channel: "discord",
        guildId: "g1",
        memberRoleIds: ["r1"],
        peer: { kind: "channel", id: "c9" },
      }),
    );
    expect(roles.route).toMatchObject({ agentId: "work", matchedBy: "binding.guild+roles" });
    const fallback = payloadOf(await client.request("agents.route", { channel: "slack" }));
    expect(fallback.route).toMatchObject({ agentId: "main", matchedBy: "default" });
  });

  it("refuses bad params naming the field", async () => {
    expect(errorOf(await client.request("agents.route", {}))).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("channel"),
    });
    const badPeer = errorOf(
      await client.request("agents.route", { channel: "telegram", peer: { kind: "x", id: "1" } }),
    );
    expect(badPeer.message).toContain("peer");
  });
});

describe("agents.files", () => {
  it("lists the bootstrap files, writes one atomically and reads it back", async () => {
    const listed = payloadOf(await client.request("agents.files.list", { agentId: "main" }));
    const names = listed.files.map((file: Loose) => file.name);
    expect(names).toEqual(expect.arrayContaining(["AGENTS.md", "SOUL.md", "MEMORY.md"]));
    expect(names).not.toContain("memory.md");
    const workspace = listed.workspace as string;
    const content = "# SOUL.md\n\nCurious, kind, brief.\n";
    const set = payloadOf(
      await client.request("agents.files.set", { agentId: "main", name: "SOUL.md", content }),
    );
    expect(set).toMatchObject({ ok: true, file: { name: "SOUL.md", missing: false, content } });
    expect(readFileSync(join(workspace, "SOUL.md"), "utf8")).toBe(content);
    const got = payloadOf(
      await client.request("agents.files.get", { agentId: "main", name: "SOUL.md" }),
    );
    expect(got.file).toMatchObject({ content, size: Buffer.byteLength(content) });
    const again = payloadOf(await client.request("agents.files.list", { agentId: "main" }));
    const soul = again.files.find((file: Loose) => file.name === "SOUL.md");
    expect(soul).toMatchObject({ missing: false, size: Buffer.byteLength(content) });
    expect(soul.content).toBeUndefined();
  });

  it("refuses unknown names, paths and links leading out of the workspace", async () => {
    for (const name of ["../openclaw.json", "sub/SOUL.md", "/etc/passwd", "NOTES.md"]) {
      const refused = errorOf(
        await client.request("agents.files.set", { agentId: "main", name, content: "x" }),
      );
      expect(refused, name).toMatchObject({ code: "INVALID_REQUEST" });
      expect(refused.message, name).toContain("invalid name");
    }
    expect(readFileSync(box.configPath, "utf8")).not.toBe("x");
    const listed = payloadOf(await client.request("agents.files.list", { agentId: "main" }));
    const outside = join(box.home, "outside.md");
    writeFileSync(outside, "secret");
    mkdirSync(listed.workspace, { recursive: true });
    symlinkSync(outside, join(listed.workspace, "USER.md"));
    const read = errorOf(
      await client.request("agents.files.get", { agentId: "main", name: "USER.md" }),
    );
    expect(read.message).toContain("unsafe workspace file");
    const write = errorOf(
      await client.request("agents.files.set", { agentId: "main", name: "USER.md", content: "x" }),
    );
    expect(write.message).toContain("unsafe workspace file");
    expect(readFileSync(outside, "utf8")).toBe("secret");
    const unknown = errorOf(await client.request("agents.files.list", { agentId: "ghost" }));
    expect(unknown.message).toContain('unknown agent id "ghost"');
    expect(
      errorOf(await client.request("agents.files.get", { agentId: "main" })).message,
    ).toContain("name");
  });

  it("needs operator.admin to write; operator.read may read", async () => {
    const reader = await box.connect({ scopes: ["operator.read"] });
    const denied = errorOf(
      await reader.request("agents.files.set", { agentId: "main", name: "TOOLS.md", content: "x" }),
    );
    expect(denied).toMatchObject({ code: "FORBIDDEN", message: "missing scope: operator.admin" });
    const listed = payloadOf(await reader.request("agents.files.list", { agentId: "main" }));
    expect(existsSync(join(listed.workspace, "TOOLS.md"))).toBe(false);
    reader.close();
  });
});
