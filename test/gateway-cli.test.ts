// `pincer gateway run` refusals: auth none beyond loopback, and a state dir another gateway holds.
import { describe, expect, it } from "vitest";
import type { OptionsOf } from "../src/cli/command.js";
import type { CliContext } from "../src/cli/command-context.js";
import type { runOptions } from "../src/cli/gateway/commands.js";
import { run } from "../src/cli/gateway/run.js";
import { fakeProcessIo } from "./helpers/fake-process-io.js";
import { createGatewaySandbox } from "./helpers/gateway-sandbox.js";

function context(env: Record<string, string>): CliContext & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    stdout: (text) => out.push(text),
    stderr: (text) => out.push(text),
    env,
    readStdin: async () => "",
    ...fakeProcessIo(),
    isTty: false,
    color: false,
  };
}

/** Options as given on a command line: the ones not named are absent. */
function given(opts: Partial<OptionsOf<typeof runOptions>>) {
  return opts as OptionsOf<typeof runOptions>;
}

describe("pincer gateway run", () => {
  it("refuses to bind beyond loopback without auth, and refuses a locked state dir", async () => {
    const box = await createGatewaySandbox();
    try {
      const ctx = context(box.env);
      await expect(
        run(ctx, { args: [], opts: given({ bind: "lan", auth: "none", port: "0" }) }),
      ).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without auth/);
      await expect(run(ctx, { args: [], opts: given({ port: "0" }) })).rejects.toThrow(
        /another gateway running/,
      );
      await expect(run(ctx, { args: [], opts: given({ port: "99999" }) })).rejects.toThrow(
        /--port/,
      );
    } finally {
      await box.close();
    }
  });
});
