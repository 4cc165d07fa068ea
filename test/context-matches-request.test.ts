// `pincer context` counts what a run really sends: the same tools (count and names) and a system prompt
// of the same size as the request the fake model server receives.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run as contextRun } from "../src/cli/context/report.js";
import { callCommand } from "./helpers/cli-sandbox.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

describe("pincer context", () => {
  it("reports the tools and system prompt a run sends", async () => {
    sb = await createRuntimeSandbox();
    const bundled = join(import.meta.dirname, "..", "skills");
    sb.deps.bundledSkillsDir = bundled;
    sb.fake.text("ok");
    const result = await sb.run({ sessionKey: "agent:main:main", message: "hi" }).result;
    expect(result.status).toBe("ok");
    const body = sb.fake.chatRequests[0].body as unknown as ChatBody;
    const system = body.messages.find((m) => m.role === "system" || m.role === "developer");
    const sentPrompt = typeof system?.content === "string" ? system.content : "";
    const sentTools = (body.tools ?? []).map((tool) => tool.function.name);
    expect(sentTools.length).toBeGreaterThan(0);

    const env = {
      HOME: join(sb.stateDir, ".."),
      OPENCLAW_STATE_DIR: sb.stateDir,
      OPENCLAW_BUNDLED_SKILLS_DIR: bundled,
    };
    const out = await callCommand(contextRun as never, env, {
      opts: { json: true, session: "agent:main:main" },
    });
    const report = JSON.parse(out.stdout) as {
      model: string;
      tools: Array<{ name: string }>;
      systemPrompt: { chars: number };
    };
    expect(report.tools.map((tool) => tool.name)).toEqual(sentTools);
    expect(report.systemPrompt.chars).toBe(sentPrompt.length);
    expect(report.model).toBe("fake/m1");
  });
});
