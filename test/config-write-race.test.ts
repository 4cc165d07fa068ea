// Concurrent config writers never lose each other's changes: real `pincer config set` processes (the
// built dist; run `npm run build` first) racing each other and the gateway's config.patch all land.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import JSON5 from "json5";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf as p,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

/** Runs `pincer <args>` as a child process; resolves with its exit code and stderr. */
function pincer(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}

/** config.patch with baseHash, re-read and retried when another writer got in first (as a client would). */
async function patchWithRetry(client: TestClient, raw: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { hash } = p(await client.request("config.get"));
    const res = await client.request("config.patch", { raw, baseHash: hash });
    if (res.ok) return;
    const code = (res.error as { details?: { code?: string } }).details?.code;
    if (code !== "CONFIG_BASE_HASH_MISMATCH") throw new Error(JSON.stringify(res.error));
  }
  throw new Error("config.patch never got through");
}

function storedVars(path: string): Record<string, string> {
  return (
    (JSON5.parse(readFileSync(path, "utf8")) as { env?: { vars?: Record<string, string> } }).env
      ?.vars ?? {}
  );
}

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe("concurrent config writers", () => {
  it("N racing `pincer config set` processes: every write is present afterwards", async () => {
    const cli = createCliSandbox();
    cli.writeConfig("// racing writers\n{ env: { vars: {} } }\n");
    // 8 racers already lose 7 of 8 writes when a writer does not redo its edit under the lock.
    const writers = 8;
    const runs = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        pincer(["config", "set", `env.vars.KEY_${i}`, `value-${i}`], cli.env),
      ),
    );
    for (const run of runs) expect(run.stderr).toBe("");
    expect(runs.map((run) => run.code)).toEqual(runs.map(() => 0));
    const vars = storedVars(cli.configPath);
    const lost = Array.from({ length: writers }, (_, i) => `KEY_${i}`).filter((key) => !vars[key]);
    expect(lost).toEqual([]);
    expect(readFileSync(cli.configPath, "utf8")).toContain("// racing writers");
  });

  it("racing `agents add` and `config set` processes: every agent and key lands, `main` once", async () => {
    const cli = createCliSandbox();
    cli.writeConfig("{}\n");
    const agents = Array.from({ length: 4 }, (_, i) => `agent-${i}`);
    const runs = await Promise.all([
      ...agents.map((id) => pincer(["agents", "add", id], cli.env)),
      ...agents.map((_, i) => pincer(["config", "set", `env.vars.K${i}`, `v${i}`], cli.env)),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const cfg = JSON5.parse(readFileSync(cli.configPath, "utf8")) as {
      agents: { list: Array<{ id: string }> };
    };
    const ids = cfg.agents.list.map((agent) => agent.id).sort();
    expect(ids).toEqual(["main", ...agents].sort());
    expect(Object.keys(storedVars(cli.configPath)).sort()).toEqual(agents.map((_, i) => `K${i}`));
  });

  it("CLI processes and the gateway's config.patch racing: every write is present afterwards", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const env = box.env;
    const cliWriters = 6;
    const gatewayWriters = 4;
    await Promise.all([
      ...Array.from({ length: cliWriters }, async (_, i) => {
        const run = await pincer(["config", "set", `env.vars.CLI_${i}`, `c${i}`], env);
        expect(run.code, run.stderr).toBe(0);
      }),
      ...Array.from({ length: gatewayWriters }, (_, i) =>
        patchWithRetry(client, JSON.stringify({ env: { vars: { [`GW_${i}`]: `g${i}` } } })),
      ),
    ]);
    const vars = storedVars(box.configPath);
    const expected = [
      ...Array.from({ length: cliWriters }, (_, i) => `CLI_${i}`),
      ...Array.from({ length: gatewayWriters }, (_, i) => `GW_${i}`),
    ];
    expect(expected.filter((key) => !vars[key])).toEqual([]);
  });
});
