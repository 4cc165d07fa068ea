// A failed turn shows as failed in `chat.history` (an assistant message with stopReason "error" and
// the run's error after the user's message) and in `pincer sessions show`.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { run as sessionsShow } from "../src/cli/sessions/show.js";
import { callCommand } from "./helpers/cli-sandbox.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  if (box) rmSync(box.home, { recursive: true, force: true });
  box = undefined;
});

describe("a failed turn", () => {
  it("is in chat.history and sessions show as failed, with its error", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        models: {
          mode: "merge",
          providers: {
            // No apiKey anywhere, and a remote server (a local one gets a placeholder key): the run
            // fails before any model call.
            fake: {
              baseUrl: "https://llm.example.invalid/v1",
              api: "openai-completions",
              models: [{ id: "m1", name: "m1" }],
            },
          },
        },
      }),
    });
    const client = await box.connect();
    await client.request("chat.send", {
      sessionKey: "main",
      message: "hello",
      idempotencyKey: "f-1",
    });
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === "f-1" && payloadOf(f).state === "error",
    );
    const history = await client.request("chat.history", { sessionKey: "main" });
    const messages = payloadOf(history).messages as Array<Record<string, unknown>>;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]).toMatchObject({ stopReason: "error" });
    expect(String(messages[1].errorMessage)).toMatch(/no usable credential/);
    client.close();

    const shown = await callCommand(sessionsShow as never, box.env, { args: ["main"] });
    expect(shown.stdout).toMatch(/failed\s+.*no usable credential/);
  });
});
