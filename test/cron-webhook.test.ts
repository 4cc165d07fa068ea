// Cron webhook delivery end to end through the real gateway (port 0, temp state) and a real HTTP
// receiver on port 0: an isolated job's finished run POSTed with the bearer token, a failing
// receiver failing the run (or not, with bestEffort), a main-session job posting its event text, a
// token that cannot be read sending nothing, OpenClaw's legacy notify + cron.webhook, and the
// refusals of cron.add (a target that is not an http(s) URL, channel fields on a webhook).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Loose;
}

interface Receiver {
  url: string;
  received: Received[];
  /** The status the next requests are answered with. */
  status: number;
  next(): Promise<Received>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const waiting: Array<(r: Received) => void> = [];
  const receiver = { received: [] as Received[], status: 200 } as Receiver;
  const server: Server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const entry = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(text) as Loose,
      };
      receiver.received.push(entry);
      res.statusCode = receiver.status;
      if (receiver.status >= 300 && receiver.status < 400) res.setHeader("location", "/elsewhere");
      res.end("ok");
      waiting.shift()?.(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks/cron`;
  receiver.next = () => new Promise((resolve) => waiting.push(resolve));
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

let box: GatewaySandbox | undefined;
let receiver: Receiver | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await box?.close();
  await receiver?.close();
  box = undefined;
  receiver = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(cron: Record<string, unknown> = {}) {
  receiver = await startReceiver();
  box = await createGatewaySandbox({
    config: () => ({ agents: { list: [{ id: "main", heartbeat: { every: "0m" } }] }, cron }),
  });
  return { sandbox: box, hook: receiver, client: await box.connect() };
}

async function call(client: TestClient, method: string, params: unknown): Promise<Loose> {
  const res = await client.request(method, params);
  if (!res.ok) throw new Error(`${method} failed: ${JSON.stringify(res.error)}`);
  return payloadOf(res);
}

function finishedEvent(client: TestClient, jobId: string): Promise<Frame> {
  return client.waitFor(
    (f) => f.event === "cron" && payloadOf(f).jobId === jobId && payloadOf(f).action === "finished",
  );
}

function isolatedJob(url: string, extra: Record<string, unknown> = {}) {
  return {
    name: "Deploy digest",
    schedule: { kind: "every", everyMs: 3_600_000 },
    sessionTarget: "isolated",
    payload: { kind: "agentTurn", message: "Summarize today's deploys." },
    delivery: { mode: "webhook", to: url, ...extra },
  };
}

describe("cron webhook delivery", () => {
  it("POSTs an isolated job's finished run as JSON with the bearer token, and records it delivered", async () => {
    const { sandbox, hook, client } = await start({ webhookToken: "hook-secret-1" });
    const job = await call(client, "cron.add", isolatedJob(hook.url));
    expect(job.delivery).toEqual({ mode: "webhook", to: hook.url });
    sandbox.fake.text("Three deploys, all green.");
    const posted = hook.next();
    const finished = finishedEvent(client, job.id);
    const ran = await call(client, "cron.run", { id: job.id });
    const request = await posted;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/hooks/cron");
    expect(request.headers.authorization).toBe("Bearer hook-secret-1");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toMatchObject({
      jobId: job.id,
      jobName: "Deploy digest",
      action: "finished",
      runId: ran.runId,
      status: "ok",
      summary: "Three deploys, all green.",
      sessionKey: `agent:main:cron:${job.id}`,
    });
    expect(request.body.durationMs).toBeGreaterThanOrEqual(0);
    expect(request.body.ts).toBeGreaterThanOrEqual(request.body.runAtMs);
    expect(payloadOf(await finished)).toMatchObject({
      status: "ok",
      delivered: true,
      deliveryStatus: "delivered",
    });
    const runs = await call(client, "cron.runs", { id: job.id });
    expect(runs.entries[0]).toMatchObject({ status: "ok", delivered: true });
    // Nothing went to a chat: the webhook is the job's delivery.
    expect(hook.received).toHaveLength(1);
  });

  it("a receiver answering 500 fails the run with the reason; with bestEffort the run stays ok", async () => {
    const { sandbox, hook, client } = await start();
    hook.status = 500;
    const strict = await call(client, "cron.add", isolatedJob(`${hook.url}?key=do-not-log`));
    sandbox.fake.text("Report A.");
    let finished = finishedEvent(client, strict.id);
    await call(client, "cron.run", { id: strict.id });
    const failed = payloadOf(await finished);
    expect(failed).toMatchObject({
      status: "error",
      delivered: false,
      deliveryStatus: "not-delivered",
    });
    expect(failed.error).toBe(`delivery failed: webhook ${hook.url}: HTTP 500`);
    expect(JSON.stringify(failed)).not.toContain("do-not-log");
    expect(hook.received[0]?.headers.authorization).toBeUndefined();

    const lenient = await call(client, "cron.add", isolatedJob(hook.url, { bestEffort: true }));
    hook.status = 302;
    sandbox.fake.text("Report B.");
    finished = finishedEvent(client, lenient.id);
    await call(client, "cron.run", { id: lenient.id });
    const kept = payloadOf(await finished);
    expect(kept).toMatchObject({ status: "ok", deliveryStatus: "not-delivered" });
    expect(kept.deliveryError).toBe(`webhook ${hook.url}: HTTP 302 (redirects are not followed)`);
    // The redirect's target was never asked for.
    expect(hook.received.map((r) => r.url)).toEqual(["/hooks/cron?key=do-not-log", "/hooks/cron"]);
  });

  it("a main-session job posts its event text; an unreadable token sends nothing and says why", async () => {
    const { hook, client } = await start({
      webhookToken: { source: "env", id: "PINCER_TEST_NO_SUCH_TOKEN" },
    });
    const job = await call(client, "cron.add", {
      name: "Ping",
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "main",
      wakeMode: "next-heartbeat",
      payload: { kind: "systemEvent", text: "Check the queue." },
      delivery: { mode: "webhook", to: hook.url },
    });
    const finished = finishedEvent(client, job.id);
    await call(client, "cron.run", { id: job.id });
    const event = payloadOf(await finished);
    expect(event).toMatchObject({
      status: "ok",
      summary: "Check the queue.",
      deliveryStatus: "not-delivered",
    });
    expect(event.deliveryError).toBe(
      "not sent: cron.webhookToken: environment variable PINCER_TEST_NO_SUCH_TOKEN is not set",
    );
    expect(hook.received).toHaveLength(0);
  });

  it("posts a stored OpenClaw job with notify: true to cron.webhook, on top of its usual delivery", async () => {
    const storeDir = mkdtempSync(join(tmpdir(), "pincer-cron-store-"));
    dirs.push(storeDir);
    const jobsPath = join(storeDir, "jobs.json");
    const legacy = {
      id: "legacy-1",
      name: "Legacy digest",
      enabled: true,
      notify: true,
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "isolated",
      wakeMode: "now",
      payload: { kind: "agentTurn", message: "Digest." },
      delivery: { mode: "none" },
      state: {},
    };
    writeFileSync(jobsPath, JSON.stringify({ version: 1, jobs: [legacy] }));
    receiver = await startReceiver();
    const hook = receiver;
    box = await createGatewaySandbox({
      config: () => ({
        agents: { list: [{ id: "main", heartbeat: { every: "0m" } }] },
        cron: { store: jobsPath, webhook: hook.url },
      }),
    });
    const sandbox = box;
    const client = await sandbox.connect();
    sandbox.fake.text("Legacy digest text.");
    const posted = hook.next();
    const finished = finishedEvent(client, "legacy-1");
    await call(client, "cron.run", { id: "legacy-1" });
    expect((await posted).body).toMatchObject({
      jobId: "legacy-1",
      status: "ok",
      summary: "Legacy digest text.",
    });
    // Its own delivery (none) is what the run records.
    expect(payloadOf(await finished)).toMatchObject({
      status: "ok",
      deliveryStatus: "not-requested",
    });
  });

  it("the cron tool can neither add a webhook job nor change one an operator made", async () => {
    const { sandbox, hook, client } = await start();
    const job = await call(client, "cron.add", isolatedJob(hook.url));
    const refusal = /webhook delivery is set by an operator/;
    sandbox.fake.toolCall("cron", { action: "add", job: isolatedJob("http://127.0.0.1:9/steal") });
    sandbox.fake.text("I could not.");
    sandbox.fake.toolCall("cron", {
      action: "update",
      jobId: job.id,
      patch: { delivery: { to: "http://127.0.0.1:9/steal" } },
    });
    sandbox.fake.text("Not that either.");
    for (const [nth, message] of [
      [1, "post my runs elsewhere"],
      [3, "move that webhook"],
    ] as const) {
      const res = await client.request("agent", {
        message,
        sessionKey: "main",
        idempotencyKey: `tool-${nth}`,
      });
      expect(res.ok).toBe(true);
      await client.waitFor(
        (f) => f.type === "res" && f.id === res.id && payloadOf(f).status !== "accepted",
      );
      expect(JSON.stringify(sandbox.fake.chatRequests[nth]?.body)).toMatch(refusal);
    }
    const jobs = (await call(client, "cron.list", {})).jobs;
    expect(jobs.map((j: Loose) => j.delivery)).toEqual([{ mode: "webhook", to: hook.url }]);
  });

  it("cron.add refuses a webhook target that is not an http(s) URL, and channel fields on a webhook", async () => {
    const { client } = await start();
    for (const [to, extra] of [
      ["telegram:123", {}],
      ["ftp://example.invalid/x", {}],
      ["", {}],
      ["https://example.invalid/hook", { channel: "telegram" }],
    ] as const) {
      const res = await client.request("cron.add", isolatedJob(to, extra));
      expect(res.ok).toBe(false);
      const message = String((res.error as Loose).message);
      expect(message).toMatch(
        extra.channel
          ? /webhook delivery takes no channel/
          : /webhook delivery needs delivery\.to to be an http\(s\) URL/,
      );
    }
    expect((await call(client, "cron.list", {})).jobs).toHaveLength(0);
  });
});
