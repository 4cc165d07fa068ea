import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadProviderModules } from "./provider-warmup.js";

describe("loading provider modules ahead of the first turn", () => {
  it("sends one warm request; a failed one is answered as fetchError, never thrown", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(
        await loadProviderModules(["openai-completions"], `http://127.0.0.1:${port}/health`),
      ).toEqual({});
      expect(hits).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const failed = await loadProviderModules([], `http://127.0.0.1:${port}/health`);
    expect(failed.fetchError).toMatch(/fetch failed/);
    expect(await loadProviderModules([])).toEqual({});
  });
});
