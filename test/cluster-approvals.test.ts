// Exec approvals of turns that run on a worker: the worker's gate reads the gateway's allowlist,
// raises its request in the gateway's pending queue (broadcast to operators as in-process) and waits
// for the answer; "allow always" is written to the gateway's exec-approvals.json and honoured by the
// next turn; deny, a timeout and an abort end the request as in-process. A private nats-server, an
// in-process gateway, one `pincer worker` from dist (run `npm run build` first).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClusterSandbox,
  createClusterSandbox,
  type Frame,
  RpcClient,
  toolResults,
  waitForWorkers,
} from "./helpers/cluster-sandbox.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-approvals tests");

describe.skipIf(!available)("exec approvals of turns on workers", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  const events: Frame[] = [];
  const approvalsFile = () => join(box.home, "gateway", "exec-approvals.json");
  const nextRequested = async (after: number) => {
    await waitUntil(
      () => events.filter((f) => f.event === "exec.approval.requested").length > after,
      "exec.approval.requested",
      20_000,
    );
    return events.filter((f) => f.event === "exec.approval.requested")[after]?.payload as {
      id: string;
      request: { command: string; agentId: string; reason: string };
    };
  };
  const requestedCount = () => events.filter((f) => f.event === "exec.approval.requested").length;
  const turn = (key: string, message: string) =>
    client.request("agent", { sessionKey: key, message, idempotencyKey: key }, { final: true });

  beforeAll(async () => {
    box = await createClusterSandbox({
      stream: "PINCER_APPROVALS",
      tools: { exec: { security: "allowlist", ask: "on-miss" } },
      execApprovalTimeoutMs: 3000,
    });
    box.spawnWorker(2);
    client = await RpcClient.connect(box.gw.url);
    client.onEvent((frame) => events.push(frame));
    await waitForWorkers(client);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
  }, 60_000);

  it("asks the gateway's operators; allow-always lands in the gateway's file and is honoured next time", async () => {
    box.fake.toolCall("exec", { command: "uname -s" }).text("first done");
    const before = requestedCount();
    const answered = turn("approve-1", "which kernel?");
    const requested = await nextRequested(before);
    expect(requested.request).toMatchObject({ command: "uname -s", agentId: "main" });
    expect(requested.request.reason).toContain("uname is not on the allowlist");
    const listed = await client.request("exec.approval.list", {});
    expect(JSON.stringify(listed.payload)).toContain(requested.id);
    const resolved = await client.request("exec.approval.resolve", {
      id: requested.id,
      decision: "allow-always",
    });
    expect(resolved.ok, JSON.stringify(resolved.error)).toBe(true);
    const final = await answered;
    expect(final.ok, JSON.stringify(final.error)).toBe(true);
    const [result] = toolResults(box.fake.chatRequests.at(-1));
    expect(result).toContain("Linux");
    expect(result).toContain("added to the allowlist");
    const file = JSON.parse(readFileSync(approvalsFile(), "utf8"));
    const patterns = file.agents.main.allowlist.map((entry: { pattern: string }) => entry.pattern);
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatch(/\/uname$/);

    // The worker reads the gateway's allowlist: the same executable runs without a new request.
    box.fake.toolCall("exec", { command: "uname -s" }).text("second done");
    const count = requestedCount();
    const again = await turn("approve-2", "once more");
    expect(again.ok).toBe(true);
    expect(toolResults(box.fake.chatRequests.at(-1)).at(-1)).toContain("Linux");
    expect(requestedCount()).toBe(count);
  }, 60_000);

  it("a deny and a timeout refuse the command with the in-process messages", async () => {
    box.fake.toolCall("exec", { command: "id -u" }).text("denied done");
    const before = requestedCount();
    const denied = turn("deny-1", "who am i?");
    const requested = await nextRequested(before);
    await client.request("exec.approval.resolve", { id: requested.id, decision: "deny" });
    expect((await denied).ok).toBe(true);
    expect(toolResults(box.fake.chatRequests.at(-1)).at(-1)).toContain(
      "exec was denied by the user",
    );

    box.fake.toolCall("exec", { command: "id -g" }).text("timed out done");
    expect((await turn("timeout-1", "which group?")).ok).toBe(true);
    expect(toolResults(box.fake.chatRequests.at(-1)).at(-1)).toContain("approval timed out");
    expect(existsSync(approvalsFile())).toBe(true);
  }, 60_000);

  it("chat.abort of the worker's run withdraws its pending request on the gateway", async () => {
    box.fake.toolCall("exec", { command: "id -n" });
    const before = requestedCount();
    const ack = await client.request("chat.send", {
      sessionKey: "abort-approval",
      message: "run something",
      idempotencyKey: "abort-approval-1",
    });
    expect(ack.ok).toBe(true);
    const requested = await nextRequested(before);
    const aborted = await client.request("chat.abort", {
      sessionKey: "abort-approval",
      runId: "abort-approval-1",
    });
    expect(aborted.ok).toBe(true);
    await waitUntil(
      () =>
        events.some(
          (f) =>
            f.event === "exec.approval.resolved" &&
            (f.payload as { id?: string; reason?: string }).id === requested.id,
        ),
      "the request withdrawn",
      10_000,
    );
    const ended = events.find(
      (f) =>
        f.event === "exec.approval.resolved" && (f.payload as { id?: string }).id === requested.id,
    );
    expect(ended?.payload).toMatchObject({ decision: "deny", reason: "aborted" });
  }, 60_000);
});
