// `pincer gateway run` refusals: auth none beyond loopback, and a state dir another gateway holds.
import { describe, expect, it } from "vitest";
import type { CliContext } from "../src/cli/context.js";
import { run } from "../src/cli/gateway/run.js";
import { createGatewaySandbox } from "./helpers/gateway-sandbox.js";

function context(env: Record<string, string>): CliContext & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    stdout: (text) => out.push(text),
    stderr: (text) => out.push(text),
    env,
    readStdin: async () => "",
    isTty: false,
    color: false,
  };
}

describe("pincer gateway run", () => {
  it("refuses to bind beyond loopback without auth, and refuses a locked state dir", async () => {
    const box = await createGatewaySandbox();
    try {
      const ctx = context(box.env);
      await expect(
        run(ctx, { args: [], opts: { bind: "lan", auth: "none", port: "0" } }),
      ).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without auth/);
      await expect(run(ctx, { args: [], opts: { port: "0" } })).rejects.toThrow(
        /another gateway running/,
      );
      await expect(run(ctx, { args: [], opts: { port: "99999" } })).rejects.toThrow(/--port/);
    } finally {
      await box.close();
    }
  });
});
