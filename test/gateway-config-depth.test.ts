// Deeply nested config input is refused with a clear INVALID_REQUEST naming the depth limit — on every
// write path (config.patch, config.set, config.apply, `pincer config set`) — instead of overflowing the
// stack into a retryable internal error; the gateway keeps serving and nothing is written.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CONFIG_DEPTH } from "../src/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  payloadOf as p,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const LEVELS = 100_000;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const deepArray = (levels: number) => `{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`;
/** A valid patch whose value under meta.migrations nests `levels` objects in total. */
const nestedMeta = (levels: number) =>
  `{"meta":{"migrations":${'{"a":'.repeat(levels - 2)}1${"}".repeat(levels - 2)}}}`;

function expectTooDeep(res: Frame): void {
  expect(res.ok).toBe(false);
  expect(res.error).toMatchObject({
    code: "INVALID_REQUEST",
    details: { code: "CONFIG_TOO_DEEP" },
  });
  const error = res.error as { message: string; retryable?: boolean };
  expect(error.message).toContain(`${MAX_CONFIG_DEPTH} levels`);
  expect(error.retryable).not.toBe(true);
}

describe("config depth limit over the gateway", () => {
  it("refuses deeply nested objects and arrays on patch, set and apply", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const before = readFileSync(box.configPath, "utf8");
    const { hash } = p(await client.request("config.get"));
    for (const raw of [deepObject(LEVELS), deepArray(LEVELS)]) {
      expectTooDeep(await client.request("config.patch", { raw, baseHash: hash }));
      expectTooDeep(await client.request("config.set", { raw, baseHash: hash }));
      expectTooDeep(await client.request("config.apply", { raw, baseHash: hash }));
    }
    expect(readFileSync(box.configPath, "utf8")).toBe(before);
    expect(p(await client.request("health")).ok).toBe(true);
  });

  it("accepts nesting up to the limit and refuses one level more", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const { hash } = p(await client.request("config.get"));
    const over = await client.request("config.patch", {
      raw: nestedMeta(MAX_CONFIG_DEPTH + 1),
      baseHash: hash,
    });
    expectTooDeep(over);
    const within = await client.request("config.patch", {
      raw: nestedMeta(MAX_CONFIG_DEPTH),
      baseHash: hash,
    });
    expect(within.ok).toBe(true);
  });
});

describe("pincer config set depth limit", () => {
  it("refuses a value nested beyond the limit and writes nothing", async () => {
    const cli = createCliSandbox();
    cli.writeConfig("{}\n");
    const res = await cli.run(["config", "set", "meta.migrations.x", deepObject(LEVELS)]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${MAX_CONFIG_DEPTH} levels`);
    expect(readFileSync(cli.configPath, "utf8")).toBe("{}\n");
  });
});
