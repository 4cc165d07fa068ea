// A turn that fails, times out or names an unreachable provider leaves its prompt and an assistant
// message with stopReason "error" (the run's error) in the transcript — never a bare user message.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config/resolve.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

type Line = {
  type: string;
  message?: { role: string; stopReason?: string; errorMessage?: string };
};

function messages(stateDir: string, key: string): NonNullable<Line["message"]>[] {
  const dir = join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8"));
  const file = index[key].sessionFile ?? join(dir, `${index[key].sessionId}.jsonl`);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line)
    .flatMap((line) => (line.type === "message" && line.message ? [line.message] : []));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a failed turn in the transcript", () => {
  it("a run that never reached a model: the prompt and an error reply with the run's error", async () => {
    sb = await createRuntimeSandbox();
    const cfg = sb.deps.config.config;
    sb.deps.config = resolveConfig({
      config: {
        ...cfg,
        agents: { ...cfg.agents, defaults: { ...cfg.agents?.defaults, model: "fakr/m1" } },
      },
      paths: sb.deps.paths,
    });
    const result = await sb.run({ sessionKey: "agent:main:main", message: "hello?" }).result;
    expect(result.status).toBe("error");
    // Named as an unknown provider with a did-you-mean, not "no usable credential".
    expect(result.error).toMatch(/unknown provider "fakr".*did you mean fake\/m1\?/);
    await sb.deps.stores.closeAll();
    const lines = messages(sb.stateDir, "agent:main:main");
    expect(lines.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(lines[1]).toMatchObject({ stopReason: "error", errorMessage: result.error });
  });

  it("a timeout ends with an error reply naming the timeout", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.hang();
    const result = await sb.run({ sessionKey: "agent:main:t", message: "hi", timeoutSeconds: 0.2 })
      .result;
    expect(result.status).toBe("timeout");
    await sb.deps.stores.closeAll();
    const last = messages(sb.stateDir, "agent:main:t").at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(last?.errorMessage).toMatch(/timed out after 0\.2s/);
  });

  it("an unreachable provider: the run's error names the provider, host and cause", async () => {
    const port = await closedPort();
    sb = await createRuntimeSandbox((baseUrl) => ({
      models: {
        mode: "merge",
        providers: {
          fake: {
            baseUrl,
            apiKey: "sk-test",
            api: "openai-completions",
            models: [{ id: "m1", name: "m1" }],
          },
          dead: {
            baseUrl: `http://127.0.0.1:${port}/v1`,
            apiKey: "sk-test",
            api: "openai-completions",
            models: [{ id: "d1", name: "d1" }],
          },
        },
      },
      agents: { defaults: { model: "dead/d1" }, list: [{ id: "main" }] },
    }));
    const result = await sb.run({ sessionKey: "agent:main:u", message: "hi" }).result;
    expect(result.status).toBe("error");
    expect(result.error).toContain(
      `model provider "dead" unreachable: connection to 127.0.0.1:${port} refused (ECONNREFUSED)`,
    );
    expect(result.error).not.toMatch(/timeout/);
    await sb.deps.stores.closeAll();
    const last = messages(sb.stateDir, "agent:main:u").at(-1);
    expect(last).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: result.error,
    });
  });
});
