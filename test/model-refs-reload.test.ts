// A live reload checks model refs as gateway start does: a config naming an unknown model is refused
// (the running config kept, the issue with its did-you-mean in config status), not swapped in to
// fail every run later.
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe("live reload and model refs", () => {
  it("refuses a config whose agent names an unknown model, keeping the running one", async () => {
    box = await createGatewaySandbox({ config: () => ({ agents: { list: [{ id: "Main" }] } }) });
    const cfg = JSON.parse(readFileSync(box.configPath, "utf8")) as Loose;
    cfg.agents.list[0].model = { primary: "fake/m1", fallbacks: ["fake/m3"] };
    writeFileSync(box.configPath, JSON.stringify(cfg, null, 2));
    const result = box.gw.core.live.reload("test");
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    if (result.ok) return;
    expect(result.issues).toContainEqual(
      expect.objectContaining({
        path: "agents.list[0].model.fallbacks[0]",
        message: expect.stringMatching(/unknown model fake\/m3.*did you mean fake\/m1/),
      }),
    );
    expect(box.gw.core.live.resolved.agents[0]?.fallbacks).toEqual([]);
    expect(box.gw.core.live.status().file.valid).toBe(false);
  }, 30_000);

  it("config.patch and config.set refuse an unknown model before writing the file", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const before = readFileSync(box.configPath, "utf8");
    const { hash } = payloadOf(await client.request("config.get"));
    const patched = await client.request("config.patch", {
      raw: '{ agents: { defaults: { model: "fake/m9" } } }',
      baseHash: hash,
    });
    expect(patched.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { code: "CONFIG_INVALID" },
      message: expect.stringMatching(
        /agents\.defaults\.model.*unknown model fake\/m9.*did you mean/,
      ),
    });
    const whole = JSON.parse(before) as Loose;
    whole.agents.list[0].model = "fakee/m1";
    const set = await client.request("config.set", { raw: JSON.stringify(whole), baseHash: hash });
    expect(set.error).toMatchObject({
      message: expect.stringMatching(
        /agents\.list\[0\]\.model.*unknown provider "fakee".*did you mean fake\/m1/,
      ),
    });
    expect(readFileSync(box.configPath, "utf8")).toBe(before);
  }, 30_000);
});
