import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CronJob } from "./types.js";
import {
  type CronWebhookBody,
  postCronWebhook,
  readWebhookToken,
  webhookTargetOf,
  webhookUrlProblem,
} from "./webhook.js";

const BODY: CronWebhookBody = {
  jobId: "j1",
  jobName: "J",
  action: "finished",
  ts: 2,
  runId: "r1",
  runAtMs: 1,
  durationMs: 1,
  status: "ok",
  summary: "done",
};

function job(extra: Partial<CronJob>): CronJob {
  return {
    id: "j1",
    name: "J",
    enabled: true,
    createdAtMs: 0,
    updatedAtMs: 0,
    schedule: { kind: "every", everyMs: 60_000 },
    sessionTarget: "isolated",
    wakeMode: "now",
    payload: { kind: "agentTurn", message: "m" },
    state: {},
    ...extra,
  };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server on port 0 whose handler may answer or not; its base URL. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("cron webhook", () => {
  it("accepts http and https URLs only", () => {
    expect(webhookUrlProblem("https://example.invalid/a?b=1")).toBeUndefined();
    expect(webhookUrlProblem(" http://127.0.0.1:8080/x ")).toBeUndefined();
    for (const bad of [undefined, "", "example.com/hook", "ftp://example.invalid", "file:///etc/x"])
      expect(webhookUrlProblem(bad)).toMatch(/needs delivery\.to to be an http\(s\) URL/);
  });

  it("targets the job's own webhook, else cron.webhook for a legacy notify job", () => {
    const hook = { mode: "webhook", to: " https://a.invalid/h " } as const;
    expect(webhookTargetOf(job({ delivery: hook }), { webhook: "https://b.invalid" })).toEqual({
      url: "https://a.invalid/h",
      legacy: false,
    });
    const legacy = { url: "https://b.invalid", legacy: true };
    expect(webhookTargetOf(job({ notify: true }), { webhook: "https://b.invalid" })).toEqual(
      legacy,
    );
    expect(
      webhookTargetOf(job({ notify: true, delivery: { mode: "announce" } }), {
        webhook: "https://b.invalid",
      }),
    ).toEqual(legacy);
    expect(webhookTargetOf(job({ notify: true }), {})).toBeUndefined();
    expect(webhookTargetOf(job({}), { webhook: "https://b.invalid" })).toBeUndefined();
  });

  it("reads cron.webhookToken as a string or an env SecretRef, naming what is missing", () => {
    expect(readWebhookToken({ webhookToken: " t1 " }, {})).toEqual({ token: "t1" });
    expect(readWebhookToken({ webhookToken: { source: "env", id: "T" } }, { T: "t2" })).toEqual({
      token: "t2",
    });
    expect(readWebhookToken({ webhookToken: { source: "env", id: "T" } }, {}).problem).toBe(
      "cron.webhookToken: environment variable T is not set",
    );
    expect(readWebhookToken({}, {})).toEqual({});
  });

  it("posts once: 2xx is delivered; other answers, a refused connection and a timeout are failures", async () => {
    let seen: { auth?: string; body: string } | undefined;
    const base = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen = { auth: req.headers.authorization, body };
        if (req.url === "/slow") return; // never answers
        res.statusCode = req.url === "/ok" ? 204 : 404;
        res.end();
      });
    });
    expect(await postCronWebhook({ url: `${base}/ok`, token: "s", body: BODY })).toEqual({
      ok: true,
    });
    expect(seen?.auth).toBe("Bearer s");
    expect(JSON.parse(seen?.body ?? "")).toEqual(BODY);
    expect(await postCronWebhook({ url: `${base}/missing`, token: undefined, body: BODY })).toEqual(
      {
        ok: false,
        error: "HTTP 404",
      },
    );
    expect(
      await postCronWebhook({ url: `${base}/slow`, token: undefined, body: BODY, timeoutMs: 50 }),
    ).toEqual({ ok: false, error: "no answer in 50 ms" });
    const port = Number(new URL(base).port);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const refused = await postCronWebhook({
      url: `http://127.0.0.1:${port}/ok`,
      token: undefined,
      body: BODY,
    });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? "" : refused.error).toMatch(/ECONNREFUSED/);
    expect(await postCronWebhook({ url: "mailto:x", token: undefined, body: BODY })).toEqual({
      ok: false,
      error: 'webhook delivery needs delivery.to to be an http(s) URL (got "mailto:x")',
    });
  });
});
