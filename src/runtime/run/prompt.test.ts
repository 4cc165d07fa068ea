// The system prompt a run builds reads the resolved config: the agent's own zone and clock win over
// agents.defaults (and the legacy `agent` block), and `repoRoot` reaches the Runtime line.
import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "../../agents/system-prompt.js";
import { resolveRoster } from "../../config/resolve.js";
import { runSystemPromptParams } from "./prompt.js";

function promptFor(config: unknown, agentId: string): string {
  const cfg = resolveRoster(config);
  const agent = cfg.agents.find((item) => item.id === agentId);
  if (!agent) throw new Error(`no agent ${agentId}`);
  const params = runSystemPromptParams({
    cfg,
    agent,
    sessionKey: `agent:${agentId}:main`,
    model: "openai/gpt-5",
    tools: [],
    promptMode: "full",
    bootstrap: [],
    skillsPrompt: undefined,
  });
  return buildSystemPrompt(params).text;
}

describe("runSystemPromptParams", () => {
  const config = {
    agents: {
      defaults: { userTimezone: "Europe/Madrid", timeFormat: "24", repoRoot: "/srv/repo" },
      list: [{ id: "home" }, { id: "travel", userTimezone: "Asia/Tokyo", timeFormat: "12" }],
    },
  };

  it("uses the defaults' zone, clock and repo root", () => {
    const text = promptFor(config, "home");
    expect(text).toContain("User time zone: Europe/Madrid; 24-hour clock.");
    expect(text).toContain("repo=/srv/repo");
  });

  it("lets an agent's own userTimezone and timeFormat win", () => {
    expect(promptFor(config, "travel")).toContain("User time zone: Asia/Tokyo; 12-hour clock.");
  });

  it("reads the legacy top-level agent block too", () => {
    const text = promptFor({ agent: { userTimezone: "UTC", timeFormat: "12" } }, "main");
    expect(text).toContain("User time zone: UTC; 12-hour clock.");
  });
});
