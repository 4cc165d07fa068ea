// Warming the run path before the first turn: each agent's store, toolset, bootstrap files, skills,
// system prompt and provider request are built, the request streamed to an in-process server in the
// provider's format (or built and aborted where the format is not rehearsed), one whole turn run on
// throwaway state, and nothing reaches the provider — no connection to the model, no file written in
// the state dir or workspace, no session created — while the first real turn is answered as usual.
// (A temp dir left behind would fail the run: test/global-setup.ts checks TMPDIR.)
import { readdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { warmRunPath } from "../src/runtime/run/index.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
let probe: Server | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  await new Promise((resolve) => (probe ? probe.close(resolve) : resolve(undefined)));
  probe = undefined;
});

/** Every file under `dir` with its size and mtime. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = statSync(full);
        out.push(`${full} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** A TCP listener on 127.0.0.1 that counts connections (and answers none). */
async function connectionCounter(): Promise<{ url: string; count: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  probe = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, count: () => connections };
}

describe("run path warm-up", () => {
  it("rehearses each agent's stream in-process without connecting, writing or creating a session", async () => {
    const counter = await connectionCounter();
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
          probe: {
            baseUrl: counter.url,
            apiKey: "sk-probe",
            api: "openai-completions",
            models: [{ id: "p1", name: "p1" }],
          },
        },
      },
      agents: { list: [{ id: "main" }, { id: "ops", model: "probe/p1" }] },
    }));
    const before = listing(join(sb.stateDir, ".."));
    const reports = await warmRunPath(sb.deps, ["main", "ops"]);
    // The first agent whose stream was rehearsed also runs one whole turn on throwaway state.
    expect(reports).toEqual([
      { agentId: "main", reached: "turn" },
      { agentId: "ops", reached: "stream" },
    ]);
    expect(counter.count()).toBe(0);
    expect(sb.fake.requests).toHaveLength(0);
    expect(listing(join(sb.stateDir, ".."))).toEqual(before);
    expect(sb.deps.stores.opened()).toHaveLength(2);
    expect(sb.deps.stores.forAgent("main").size).toBe(0);

    sb.fake.text("first answer");
    const result = await sb.run({ sessionKey: "agent:main:main", message: "hi" }).result;
    expect(result.status).toBe("ok");
    expect(sb.fake.chatRequests).toHaveLength(1);
  });

  it("says why the rehearsal turn fell short (no temp dir) and keeps the stream warm-up", async () => {
    sb = await createRuntimeSandbox();
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(sb.stateDir, "no", "such", "dir");
    try {
      const [report] = await warmRunPath(sb.deps, ["main"]);
      expect(report).toMatchObject({ agentId: "main", reached: "stream" });
      expect(report?.error).toMatch(/^turn rehearsal fell short: .*ENOENT/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(sb.fake.requests).toHaveLength(0);
  });

  it("reports an agent it cannot warm instead of throwing", async () => {
    sb = await createRuntimeSandbox();
    const reports = await warmRunPath(sb.deps, ["main", "Bad Id!"]);
    expect(reports[0]).toEqual({ agentId: "main", reached: "turn" });
    expect(reports).toHaveLength(2);
    expect(sb.fake.requests).toHaveLength(0);
  });

  it("builds and aborts the request of a provider whose stream is not rehearsed", async () => {
    const counter = await connectionCounter();
    sb = await createRuntimeSandbox(() => ({
      models: {
        mode: "merge",
        providers: {
          probe: {
            baseUrl: counter.url,
            apiKey: "sk-probe",
            api: "openai-responses",
            models: [{ id: "p1", name: "p1" }],
          },
        },
      },
      agents: { list: [{ id: "main", model: "probe/p1" }] },
    }));
    expect(await warmRunPath(sb.deps, ["main"])).toEqual([{ agentId: "main", reached: "request" }]);
    expect(counter.count()).toBe(0);
  });
});
