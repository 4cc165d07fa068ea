// chat.send honours its session's queue mode: under `/queue interrupt` a message sent while the
// session's turn is still streaming aborts that turn (its client gets `aborted`) and runs right
// after it; under the default mode the second message waits for the first turn, which completes.
import { afterEach, describe, expect, it } from "vitest";
import {
  chatEventText,
  chatSendAndWait,
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** Polls `check` until it holds (10 s bound). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Sends "first" (a slow stream) and, once the model is streaming it, "second". */
async function overlap(sandbox: GatewaySandbox, client: TestClient) {
  sandbox.fake.text("a long first answer", { chunks: 40, delayMs: 50 }).text("second answer");
  const firstFinal = client.waitFor(
    (f) =>
      f.event === "chat" &&
      payloadOf(f).runId === "first" &&
      ["final", "aborted", "error"].includes(payloadOf(f).state),
  );
  const ack = await client.request("chat.send", {
    sessionKey: "main",
    message: "first",
    idempotencyKey: "first",
  });
  expect(ack.ok).toBe(true);
  await until(() => sandbox.fake.chatRequests.length === 1, "the first model request");
  const second = await chatSendAndWait(client, { message: "second", runId: "second" });
  return { first: payloadOf(await firstFinal), second: second.event };
}

describe("chat.send and the session queue mode", () => {
  it("interrupt: the running turn is aborted and the new message runs after it", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const set = await chatSendAndWait(client, { message: "/queue interrupt", runId: "q" });
    expect(chatEventText(set.event)).toContain("interrupt");
    const { first, second } = await overlap(box, client);
    expect(first.state).toBe("aborted");
    expect(second.state).toBe("final");
    expect(chatEventText(second)).toBe("second answer");
    expect(box.fake.chatRequests).toHaveLength(2);
  });

  it("the default mode: the second message waits and the first turn completes", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const { first, second } = await overlap(box, client);
    expect(first.state).toBe("final");
    expect(chatEventText(first)).toBe("a long first answer");
    expect(chatEventText(second)).toBe("second answer");
  });
});
