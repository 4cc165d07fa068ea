// Plugins and internal hooks of turns that run on a worker: the worker loads the configured plugins
// and the workspace's hooks itself, so a plugin's prompt hook and tool, its before_tool_call guard
// and an `agent:bootstrap` hook all act on a worker's turn as they do in-process. A private
// nats-server, an in-process gateway, one `pincer worker` from dist (run `npm run build` first).
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClusterSandbox,
  createClusterSandbox,
  RpcClient,
  toolResults,
  waitForWorkers,
} from "./helpers/cluster-sandbox.js";
import { natsServerAvailable } from "./helpers/nats-server.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const available = natsServerAvailable("cluster-extensions tests");

const PLUGIN = `
export default {
  id: "guard",
  register(api) {
    api.on("before_tool_call", (event) =>
      event.toolName === "exec" ? { block: true, blockReason: "no exec on workers" } : undefined,
    );
    api.on("before_prompt_build", () => ({ prependContext: "WORKER-PLUGIN-CONTEXT-9" }));
    api.registerTool({
      name: "weather",
      label: "Weather",
      description: "The weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      execute: async (_id, params) => ({
        content: [{ type: "text", text: "sunny in " + params.city + " (pid " + process.pid + ")" }],
        details: {},
      }),
    });
  },
};
`;

function writeHook(root: string, name: string, body: string): void {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "HOOK.md"),
    `---\nname: ${name}\ndescription: test hook ${name}\nmetadata: { "openclaw": { "events": ["agent:bootstrap"] } }\n---\n\n# ${name}\n`,
  );
  writeFileSync(join(dir, "handler.js"), `export default async (event) => {\n${body}\n};\n`);
}

describe.skipIf(!available)("plugins and internal hooks of turns on workers", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  let marker: string;
  let dir: string;
  let workerPid: number | undefined;
  const turn = (key: string, message: string) =>
    client.request("agent", { sessionKey: key, message, idempotencyKey: key }, { final: true });

  beforeAll(async () => {
    dir = makeTempDir("pincer-cluster-plugins-");
    const plugin = join(dir, "guard.mjs");
    writeFileSync(plugin, PLUGIN);
    marker = join(dir, "exec-ran");
    box = await createClusterSandbox({
      stream: "PINCER_EXTENSIONS",
      extraConfig: {
        plugins: { load: { paths: [plugin] } },
        hooks: { internal: { enabled: true } },
      },
    });
    writeHook(
      join(box.home, "workspace", "hooks"),
      "inject",
      `  event.context.bootstrapFiles.push({ name: "EXTRA.md", path: event.context.workspaceDir + "/EXTRA.md", content: "INJECTED-ON-WORKER " + event.context.agentId });`,
    );
    const worker = box.spawnWorker(2);
    workerPid = worker.child.pid;
    client = await RpcClient.connect(box.gw.url);
    await waitForWorkers(client);
    expect(worker.out).toContain("Registered hook: inject -> agent:bootstrap");
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("the worker's prompt has the plugin's context, its tool and the bootstrap hook's file", async () => {
    box.fake.toolCall("weather", { city: "Lisbon" }).text("it is sunny");
    const before = box.fake.chatRequests.length;
    const answered = await turn("plugins-1", "weather?");
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    const [first, afterTool] = box.fake.chatRequests.slice(before);
    expect(first?.rawBody).toContain("WORKER-PLUGIN-CONTEXT-9");
    expect(first?.rawBody).toContain('"weather"');
    expect(first?.rawBody).toContain("INJECTED-ON-WORKER main");
    // The plugin tool ran in the worker's process.
    expect(toolResults(afterTool).at(-1)).toContain(`sunny in Lisbon (pid ${workerPid})`);
  }, 60_000);

  it("the plugin's before_tool_call guard blocks exec on the worker", async () => {
    box.fake.toolCall("exec", { command: `touch ${marker}` }).text("refused");
    const answered = await turn("plugins-2", "run it");
    expect(answered.ok).toBe(true);
    expect(toolResults(box.fake.chatRequests.at(-1)).at(-1)).toContain(
      "Tool call blocked by plugin guard: no exec on workers",
    );
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
