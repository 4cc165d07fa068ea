// The CLI never hides a sandbox mode Pincer cannot honour: `config validate` warns (exit 0, the config
// is valid) and `agents list` shows it, in text and in --json.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";

const FAMILY = `{
  agents: {
    defaults: { sandbox: { mode: "non-main" } },
    list: [
      { id: "main", default: true },
      { id: "work", sandbox: { mode: "off" } },
      { id: "family", sandbox: { mode: "all", scope: "agent" }, tools: { deny: ["browser"] } },
    ],
  },
}
`;

describe("sandbox mode in the CLI", () => {
  it("config validate warns once per affected agent, naming the key and its line", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const res = await sb.run(["config", "validate"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('agents.list[2].sandbox.mode is "all"');
    expect(res.stdout).toContain("openclaw.json:7");
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    const sandbox = json.issues.filter((i: { message: string }) => i.message.includes("sandbox"));
    expect(sandbox.map((i: { path: string; severity: string }) => [i.path, i.severity])).toEqual([
      ["agents.defaults.sandbox.mode", "warning"],
      ["agents.list[2].sandbox.mode", "warning"],
      // `scope` is accepted for OpenClaw compatibility and ignored (src/config/compat-keys.ts).
      ["agents.list[2].sandbox.scope", "warning"],
    ]);
  });

  it("agents list shows each agent's effective mode and whether its host tools run", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const text = (await sb.run(["agents", "list"])).stdout;
    expect(text).toContain("- family [sandbox all: tools refused]");
    expect(text).toContain(
      "sandbox    all — not available yet in Pincer: host tools refused in every session (agents.list[2].sandbox.mode)",
    );
    expect(text).toContain("outside the main session agent:main:main");
    expect(text).toContain("sandbox    off (tools run on the host, no isolation)");
    const json = JSON.parse((await sb.run(["agents", "list", "--json"])).stdout);
    expect(json.map((a: { id: string; sandbox: unknown }) => [a.id, a.sandbox])).toEqual([
      [
        "main",
        {
          mode: "non-main",
          source: "agents.defaults.sandbox.mode",
          hostTools: "refused-outside-main-session",
          mainSessionKey: "agent:main:main",
        },
      ],
      [
        "work",
        {
          mode: "off",
          source: "agents.list[1].sandbox.mode",
          hostTools: "allowed",
          mainSessionKey: "agent:work:main",
        },
      ],
      [
        "family",
        {
          mode: "all",
          source: "agents.list[2].sandbox.mode",
          hostTools: "refused",
          mainSessionKey: "agent:family:main",
        },
      ],
    ]);
  });
});
