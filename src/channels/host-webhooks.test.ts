import { describe, expect, it } from "vitest";
import { createWebhookRoutes } from "../gateway/http/webhook-routes.js";
import { silentLogger } from "../lib/logger.js";
import { createAccountWebhooks } from "./host-webhooks.js";

const route = (path: string) => ({
  path,
  methods: ["POST"] as const,
  handle: async () => ({ status: 200 }),
});

describe("an account's webhooks", () => {
  it("are all released when the account stops, so another account can take the path", () => {
    const table = createWebhookRoutes({ logger: silentLogger });
    const biz = createAccountWebhooks(table, "whatsapp/biz");
    expect(biz.register(route("/webhooks/a")).ok).toBe(true);
    expect(biz.register(route("/webhooks/b")).ok).toBe(true);
    const ops = createAccountWebhooks(table, "whatsapp/ops");
    const taken = ops.register(route("/webhooks/a"));
    expect(taken.ok || taken.error).toContain("already served by whatsapp/biz");
    biz.releaseAll();
    expect(table.paths()).toEqual([]);
    expect(ops.register(route("/webhooks/a")).ok).toBe(true);
  });

  it("are refused with a reason where the host has no HTTP port", () => {
    const result = createAccountWebhooks(undefined, "whatsapp/biz").register(route("/w"));
    expect(result).toEqual({
      ok: false,
      error: "this channel host serves no webhooks (no gateway HTTP port)",
    });
  });
});
