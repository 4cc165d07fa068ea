// Node hosts end to end: the real gateway (port 0, temp state) and a REAL node host process
// (`pincer node run` from dist, its own temp state dir) connecting through a proxy that makes it a
// remote device. Pairing: its first connect waits (the request shows in `pincer devices list`),
// `pincer devices approve` lets it in on its next retry; node.list / node.describe show it and its
// commands; node.invoke runs system.run and file.read on it, refusing `../` and symlink escapes and
// executables off its --allow list; the `nodes` tool run by an agent (fake model) runs a command on
// it after an exec approval, and a denied approval is an isError result naming the node; a node
// killed mid-invoke ends the invoke with NODE_DISCONNECTED.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import type { FakeOpenAI } from "./helpers/fake-openai.js";
import { startForwardingProxy } from "./helpers/forwarding-proxy.js";
import {
  chatSendAndWait,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  TEST_TOKEN,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { type NodeHostProcess, spawnNodeHost } from "./helpers/node-host-process.js";

let box: GatewaySandbox;
let admin: TestClient;
let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
let node: NodeHostProcess;
let files: string;
let nodeId: string;

beforeAll(async () => {
  box = await createGatewaySandbox({
    config: () => ({
      tools: { alsoAllow: ["nodes"], exec: { security: "allowlist", ask: "on-miss" } },
      // A command the node declares that the gateway still refuses, by exact name.
      gateway: {
        auth: { mode: "token", token: TEST_TOKEN },
        nodes: { denyCommands: ["system.which"] },
      },
    }),
  });
  admin = await box.connect();
  proxy = await startForwardingProxy(box.gw.url);
  files = mkdtempSync(join(tmpdir(), "pincer-node-root-"));
  const root = join(files, "root");
  mkdirSync(root);
  writeFileSync(join(root, "notes.txt"), "inside the root\n");
  writeFileSync(join(files, "secret.txt"), "outside the root\n");
  symlinkSync(join(files, "secret.txt"), join(root, "escape.txt"));
  node = spawnNodeHost([
    ...["--url", proxy.url, "--token", TEST_TOKEN, "--display-name", "build-box"],
    ...["--roots", root, "--allow", "echo,sleep"],
  ]);
});

afterAll(async () => {
  await node?.kill();
  await proxy?.close();
  await box?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

const gatewayCli = (argv: string[]) => createCliSandbox(box.env).run(argv);

let invokes = 0;
function invoke(command: string, params: unknown, timeoutMs = 20_000) {
  return admin.request(
    "node.invoke",
    { nodeId, command, params, idempotencyKey: `test-${++invokes}` },
    timeoutMs,
  );
}

/** The tool results the model was sent in its latest request. */
function toolResults(fake: FakeOpenAI): string[] {
  const messages = (fake.chatRequests.at(-1)?.body?.messages ?? []) as Loose[];
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("a node host process", () => {
  it("waits for pairing, connects once approved and shows in node.list with its commands", async () => {
    const [, requestId] = await node.waitForOutput(/pairing required: approve request (\S+)/);
    const listed = await gatewayCli(["devices", "list", "--json"]);
    expect(listed.code).toBe(0);
    const pending = JSON.parse(listed.stdout).pending as Loose[];
    const request = pending.find((r) => r.requestId === requestId);
    expect(request).toMatchObject({
      role: "node",
      clientId: "node-host",
      displayName: "build-box",
    });
    nodeId = request!.deviceId;
    // Not connected before approval.
    expect(payloadOf(await admin.request("node.list", {})).nodes).toEqual([]);

    const approved = await gatewayCli(["devices", "approve", requestId!]);
    expect(approved.code).toBe(0);
    await node.waitForOutput(/connected to ws:\/\/\S+ as node [0-9a-f]+ \(build-box\)/);
    const nodes = payloadOf(await admin.request("node.list", {})).nodes as Loose[];
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      nodeId,
      displayName: "build-box",
      connected: true,
      paired: true,
      remoteIp: "127.0.0.1",
      commands: ["system.run", "system.which", "file.read", "file.write"],
    });
    const described = await admin.request("node.describe", { nodeId });
    expect(payloadOf(described)).toMatchObject({ nodeId, connected: true });
    const unknown = await admin.request("node.describe", { nodeId: "nope" });
    expect(unknown.error).toMatchObject({ code: "INVALID_REQUEST", message: "unknown nodeId" });
    const presence = payloadOf(await admin.request("system-presence", {})) as unknown as Loose[];
    expect(presence.some((row) => row.mode === "node" && row.deviceId === nodeId)).toBe(true);
  });

  it("runs system.run and answers with its output; refuses executables off its --allow list", async () => {
    const res = await invoke("system.run", { command: ["echo", "hello", "node"] });
    expect(res.ok).toBe(true);
    expect(payloadOf(res)).toMatchObject({ ok: true, nodeId, command: "system.run" });
    expect(payloadOf(res).payload).toMatchObject({
      exitCode: 0,
      success: true,
      stdout: "hello node\n",
      timedOut: false,
    });
    const refused = await invoke("system.run", { command: ["cat", "/etc/hostname"] });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({
      code: "UNAVAILABLE",
      details: { code: "PERMISSION_DENIED", nodeId, command: "system.run" },
    });
    expect((refused.error as Loose).message).toContain("cat is not allowed on this node");
    const undeclared = await invoke("camera.snap", {});
    expect(undeclared.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { reason: "command not declared by node" },
    });
    const denied = await invoke("system.which", { bins: ["echo"] });
    expect(denied.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { reason: "command denied by gateway.nodes.denyCommands", command: "system.which" },
    });
  });

  it("reads files inside its roots and refuses ../ and symlink escapes", async () => {
    const inside = await invoke("file.read", { path: "notes.txt" });
    expect(payloadOf(inside).payload).toMatchObject({
      data: "inside the root\n",
      encoding: "utf8",
    });
    for (const path of ["../secret.txt", "escape.txt", join(files, "secret.txt")]) {
      const res = await invoke("file.read", { path });
      expect(res.ok, path).toBe(false);
      expect(res.error, path).toMatchObject({ details: { code: "PERMISSION_DENIED" } });
    }
    const written = await invoke("file.write", { path: "out.txt", data: "written" });
    expect(payloadOf(written).payload).toMatchObject({ size: 7 });
    const back = await invoke("file.read", { path: "out.txt" });
    expect(payloadOf(back).payload).toMatchObject({ data: "written" });
    const overLink = await invoke("file.write", { path: "escape.txt", data: "x" });
    expect(overLink.error).toMatchObject({ details: { code: "PERMISSION_DENIED" } });
  });

  it("the nodes tool runs a command on the node after an exec approval that names it", async () => {
    box.fake
      .toolCall("nodes", { action: "run", node: "build-box", command: ["echo", "from-agent"] })
      .text("ran it");
    const turn = chatSendAndWait(admin, { message: "run it on the build box", runId: "nodes-1" });
    const requested = payloadOf(
      await admin.waitFor((f) => f.type === "event" && f.event === "exec.approval.requested"),
    );
    expect(requested.request).toMatchObject({
      command: "echo from-agent",
      host: "node",
      nodeId,
      nodeName: "build-box",
    });
    const answered = await admin.request("exec.approval.resolve", {
      id: requested.id,
      decision: "allow-once",
    });
    expect(answered.ok).toBe(true);
    expect((await turn).event.state).toBe("final");
    const [result] = toolResults(box.fake);
    expect(result).toContain("from-agent");
    expect(result).toContain("Approved once");
  });

  it("a denied approval is an error result and nothing runs on the node", async () => {
    box.fake
      .toolCall("nodes", { action: "run", node: nodeId.slice(0, 10), command: ["echo", "never"] })
      .text("denied");
    const turn = chatSendAndWait(admin, { message: "try again", runId: "nodes-2" });
    const requested = payloadOf(
      await admin.waitFor(
        (f) =>
          f.type === "event" &&
          f.event === "exec.approval.requested" &&
          payloadOf(f).request.command === "echo never",
      ),
    );
    await admin.request("exec.approval.resolve", { id: requested.id, decision: "deny" });
    await turn;
    const messages = (box.fake.chatRequests.at(-1)?.body?.messages ?? []) as Loose[];
    const tool = messages.filter((m) => m.role === "tool").at(-1)!;
    const text = typeof tool.content === "string" ? tool.content : JSON.stringify(tool.content);
    expect(text).toContain("nodes run on build-box was denied by the user");
    expect(text).not.toContain("never\n");
  });

  it("a node killed mid-invoke ends the invoke with NODE_DISCONNECTED", async () => {
    const pending = invoke("system.run", { command: ["sleep", "30"] }, 30_000);
    // The command is running on the node once the gateway has sent the request.
    await new Promise((resolve) => setTimeout(resolve, 500));
    node.child.kill("SIGKILL");
    const res = await pending;
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({
      code: "UNAVAILABLE",
      details: { code: "NODE_DISCONNECTED", nodeId, command: "system.run" },
    });
    const nodes = payloadOf(await admin.request("node.list", {})).nodes as Loose[];
    expect(nodes).toEqual([expect.objectContaining({ nodeId, connected: false, paired: true })]);
    const gone = await invoke("system.run", { command: ["echo", "x"] });
    expect(gone.error).toMatchObject({ code: "UNAVAILABLE", details: { code: "NOT_CONNECTED" } });
  });
});
