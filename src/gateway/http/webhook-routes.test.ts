import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelWebhookRequest, ChannelWebhookRoute } from "../../channels/types.js";
import { silentLogger } from "../../lib/logger.js";
import { createWebhookRoutes, webhookPathProblem } from "./webhook-routes.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

function route(
  path: string,
  seen: ChannelWebhookRequest[],
  extra: Partial<ChannelWebhookRoute> = {},
) {
  return {
    path,
    methods: ["GET", "POST"] as const,
    handle: async (request: ChannelWebhookRequest) => {
      seen.push(request);
      return { status: 200, body: `got ${request.body.length}` };
    },
    ...extra,
  };
}

async function serve(routes: ReturnType<typeof createWebhookRoutes>): Promise<string> {
  server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (!routes.serve(path, req, res)) {
      res.writeHead(404);
      res.end("not a webhook");
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("webhook routes", () => {
  it("refuses a path another account serves, naming it, until that one unregisters", () => {
    const routes = createWebhookRoutes({ logger: silentLogger });
    const first = routes.register(route("/webhooks/whatsapp/biz", []), "whatsapp/biz");
    expect(first.ok).toBe(true);
    const second = routes.register(route("/webhooks/whatsapp/biz", []), "whatsapp/ops");
    expect(second).toEqual({
      ok: false,
      error:
        "webhook path /webhooks/whatsapp/biz is already served by whatsapp/biz: give each account its own webhookPath",
    });
    if (first.ok) first.unregister();
    expect(routes.register(route("/webhooks/whatsapp/biz", []), "whatsapp/ops").ok).toBe(true);
    // A stale unregister (the first owner's, again) does not remove the new owner's route.
    if (first.ok) first.unregister();
    expect(routes.paths()).toEqual(["/webhooks/whatsapp/biz"]);
  });

  it.each([
    "",
    "/",
    "webhooks/x",
    "/a//b",
    "/a/../b",
    "/a/./b",
    "/a b",
    "/a%2Fb",
    "/health",
    `/${"x".repeat(300)}`,
  ])("refuses the path %j", (path) => {
    expect(webhookPathProblem(path)).toBeDefined();
    const routes = createWebhookRoutes({ logger: silentLogger });
    expect(routes.register(route(path, []), "x/y").ok).toBe(false);
  });

  it("serves only the exact path, with the raw body, query and headers", async () => {
    const routes = createWebhookRoutes({ logger: silentLogger });
    const seen: ChannelWebhookRequest[] = [];
    routes.register(route("/hooks/a", seen), "t/a");
    const base = await serve(routes);
    const res = await fetch(`${base}/hooks/a?x=1`, {
      method: "POST",
      headers: { "x-sig": "s" },
      body: "raw-bytes",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("got 9\n");
    expect(seen[0]!.body.toString()).toBe("raw-bytes");
    expect(seen[0]!.query.get("x")).toBe("1");
    expect(seen[0]!.headers["x-sig"]).toBe("s");
    expect((await fetch(`${base}/hooks/a/`)).status).toBe(404);
    expect((await fetch(`${base}/hooks`)).status).toBe(404);
    const put = await fetch(`${base}/hooks/a`, { method: "PUT", body: "x" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect(seen).toHaveLength(1);
  });

  it("answers 413 past the body cap without running the handler; a throwing handler is 500", async () => {
    const routes = createWebhookRoutes({ logger: silentLogger });
    const seen: ChannelWebhookRequest[] = [];
    routes.register(route("/hooks/small", seen, { maxBodyBytes: 16 }), "t/small");
    routes.register(
      route("/hooks/broken", seen, {
        handle: async () => {
          throw new Error("bug");
        },
      }),
      "t/broken",
    );
    const base = await serve(routes);
    const big = await fetch(`${base}/hooks/small`, { method: "POST", body: "x".repeat(17) });
    expect(big.status).toBe(413);
    const chunked = await fetch(`${base}/hooks/small`, {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("x".repeat(10)));
          controller.enqueue(new TextEncoder().encode("x".repeat(10)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(seen).toHaveLength(0);
    expect((await fetch(`${base}/hooks/small`, { method: "POST", body: "ok" })).status).toBe(200);
    expect((await fetch(`${base}/hooks/broken`, { method: "POST", body: "x" })).status).toBe(500);
  });
});
