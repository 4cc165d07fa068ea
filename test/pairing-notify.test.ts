// `pincer pairing approve <code> --notify` against the real gateway (port 0) and the in-memory channel:
// the approved sender is told through the gateway's `send`, in the channel and account they wrote
// from; with no gateway the approval stays and the command says the sender was not told.
import { afterEach, describe, expect, it } from "vitest";
import { PAIRING_APPROVED_MESSAGE } from "../src/cli/pairing/notify.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  closedPort,
  createGatewaySandbox,
  type GatewaySandbox,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function pendingCode() {
  const memory = createMemoryChannel();
  box = await createGatewaySandbox({
    config: () => ({
      channels: { memory: { dmPolicy: "pairing" } } as OpenClawConfig["channels"],
    }),
    options: { channels: { loaders: { memory: async () => memory.adapter } } },
  });
  await memory.waitForAccount("default");
  await memory.inject({ peer: { kind: "direct", id: "42" }, text: "hi" });
  const [reply] = await memory.waitForSent(1);
  const code = /Pairing code: ([A-Z2-9]{8})/.exec(reply!.message.text ?? "")?.[1] ?? "";
  return { memory, box, code, cli: createCliSandbox(box.env) };
}

describe("pincer pairing approve --notify", () => {
  it("tells the approved sender through the gateway, in their channel and account", async () => {
    const { memory, box, code, cli } = await pendingCode();
    const out = await cli.run([
      "pairing",
      "approve",
      code,
      "--notify",
      "--url",
      box.gw.url,
      "--json",
    ]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      approved: true,
      channel: "memory",
      accountId: "default",
      id: "42",
      notified: true,
    });
    const sent = await memory.waitForSent(2);
    expect(sent[1]!.message).toMatchObject({
      text: PAIRING_APPROVED_MESSAGE,
      target: { accountId: "default", peer: { kind: "direct", id: "42" } },
    });
  });

  it("keeps the approval and exits 1 naming why when the gateway is not reachable", async () => {
    const { memory, code, cli } = await pendingCode();
    const url = `ws://127.0.0.1:${await closedPort()}`;
    const out = await cli.run(["pairing", "approve", "memory", code, "--notify", "--url", url]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("Approved memory sender 42");
    expect(out.stderr).toContain(
      `approved, but 42 was not notified: gateway not reachable at ${url}`,
    );
    const listed = await cli.run(["pairing", "list", "--json"]);
    expect(JSON.parse(listed.stdout).requests).toEqual([]);
    expect(memory.sent).toHaveLength(1);
  });
});
