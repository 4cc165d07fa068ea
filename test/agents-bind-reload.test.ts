// `pincer agents bind|unbind|delete` against a running gateway (port 0, config watched): the CLI writes
// bindings[] through the config editor and lock, the gateway's reload applies it, and the next inbound
// message is routed by the new rules.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("agents bind/unbind with a running gateway", () => {
  it("the gateway routes by the bindings the CLI wrote, after its reload", async () => {
    const memory = createMemoryChannel();
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          memory: { dmPolicy: "open", allowFrom: ["*"] },
        } as OpenClawConfig["channels"],
        agents: {
          list: [{ id: "main" }, { id: "helper", workspace: makeTempDir("pincer-helper-") }],
        },
      }),
      options: {
        watchConfig: true,
        channels: { loaders: { memory: async () => memory.adapter } },
      },
    });
    const sandbox = box;
    await memory.waitForAccount("default");
    const cli = createCliSandbox(sandbox.env);
    const client = await sandbox.connect();
    const inSync = async () => payloadOf(await client.request("config.get", {})).inSync === true;
    const helperHas = (text: string) =>
      JSON.stringify(
        sandbox.gw.core.runtime.stores.forAgent("helper").readTranscript("agent:helper:main")
          ?.entries ?? [],
      ).includes(text);

    expect((await cli.run(["agents", "bind", "--agent", "helper", "--bind", "memory"])).code).toBe(
      0,
    );
    await eventually(inSync, "the reload of the bound config");
    sandbox.fake.text("from helper");
    await memory.inject({ peer: { kind: "direct", id: "7" }, text: "routed after bind" });
    await memory.waitForSent(1);
    expect(helperHas("routed after bind")).toBe(true);

    expect((await cli.run(["agents", "unbind", "--agent", "helper", "--all"])).code).toBe(0);
    await eventually(inSync, "the reload of the unbound config");
    sandbox.fake.text("from main");
    await memory.inject({ peer: { kind: "direct", id: "7" }, text: "routed after unbind" });
    await memory.waitForSent(2);
    expect(helperHas("routed after unbind")).toBe(false);
  });
});
