// An agent id given to a gateway method is normalized as the roster's ids are (`"My Agent"` →
// `my-agent`): sessions.list filters by it the way agent/chat.send resolve it.
import { afterEach, describe, expect, it } from "vitest";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe("agent ids in gateway methods", () => {
  it("sessions.list finds the sessions of an agent named as the config writes it", async () => {
    box = await createGatewaySandbox({
      config: () => ({ agents: { list: [{ id: "main" }, { id: "My Agent" }] } }),
    });
    box.fake.text("hi from my agent");
    const client = await box.connect();
    const ack = await client.request("agent", {
      message: "hello",
      agentId: "My Agent",
      idempotencyKey: "ids-1",
    });
    expect(payloadOf(ack)).toMatchObject({ agentId: "my-agent" });
    await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
      30_000,
    );
    for (const agentId of ["My Agent", "my-agent", " MY-AGENT "]) {
      const list = payloadOf(await client.request("sessions.list", { agentId }));
      expect(list.sessions.map((row: { key: string }) => row.key)).toEqual(["agent:my-agent:main"]);
    }
  }, 40_000);
});
