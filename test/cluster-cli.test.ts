// `pincer worker` as a command (in-process): flag and config errors, and a worker that connects to
// a private nats-server (creating the stream and consumers) and stops cleanly on SIGTERM.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable, startNatsServer } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-cli tests");

describe("pincer worker", () => {
  it("needs cluster.queue in the config", async () => {
    const cli = createCliSandbox();
    cli.writeConfig(JSON.stringify({ agents: { list: [{ id: "main" }] } }));
    const run = await cli.run(["worker"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no cluster\.queue in .*openclaw\.json/);
  });

  it("exits 1 naming an unknown model ref, as the gateway refuses it (NATS never dialled)", async () => {
    const cli = createCliSandbox();
    cli.writeConfig(
      JSON.stringify({
        agents: { defaults: { model: "nope/model" } },
        cluster: { queue: { kind: "nats", url: "nats://127.0.0.1:1" } },
      }),
    );
    const run = await cli.run(["worker"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('agents.defaults.model  unknown provider "nope" in nope/model');
  });

  it("refuses a bad --concurrency", async () => {
    const cli = createCliSandbox();
    const run = await cli.run(["worker", "--concurrency", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--concurrency");
  });

  it("exits 1 naming NATS when it is unreachable", async () => {
    const cli = createCliSandbox();
    cli.writeConfig(
      JSON.stringify({ cluster: { queue: { kind: "nats", url: "nats://127.0.0.1:1" } } }),
    );
    const run = await cli.run(["worker"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/worker: /);
  });

  it.skipIf(!available)(
    "runs until SIGTERM and stops cleanly",
    async () => {
      const nats = await startNatsServer();
      try {
        const cli = createCliSandbox();
        cli.writeConfig(
          JSON.stringify({
            agents: { list: [{ id: "main" }] },
            cluster: {
              queue: { kind: "nats", url: nats.url, stream: "PINCER_CLI", partitions: 4 },
            },
          }),
        );
        const running = cli.run(["worker", "--concurrency", "2"]);
        await waitUntil(
          () => cli.signals.listeners("SIGTERM") > 0,
          "the worker to listen for SIGTERM",
        );
        cli.signals.send("SIGTERM");
        const run = await running;
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toContain("worker ready");
        expect(run.stderr).toContain('"concurrency":2');
        expect(run.stdout).toContain("worker: stopped");
      } finally {
        await nats.close();
      }
    },
    30_000,
  );
});
