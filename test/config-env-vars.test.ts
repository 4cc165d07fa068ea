// Config `env` vars through the real gateway and a fake model server: a provider key that exists only in
// `env.vars` (by `${VAR}` or by the provider's own env var name) authenticates the run, config.get
// hides it, and a changed value reaches the next run after a config.patch.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
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

async function runOnce(client: TestClient, message: string) {
  const params = { message, sessionKey: "main", idempotencyKey: message };
  const ack = await client.request("agent", params);
  expect(ack.ok).toBe(true);
  const final = await client.waitFor(
    (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
    30_000,
  );
  return payloadOf(final);
}

/** The Authorization header of the fake's last chat request. */
function lastAuthorization(sandbox: GatewaySandbox): unknown {
  const chats = sandbox.fake.requests.filter((r) => r.path.endsWith("/chat/completions"));
  return chats.at(-1)?.headers.authorization;
}

const model = { id: "m1", name: "m1", contextWindow: 32000, maxTokens: 1024 };

describe("config env vars in a real gateway", () => {
  it(`a provider apiKey of \${FAKE_KEY} set only in env.vars authenticates the run; config.get redacts it`, async () => {
    box = await createGatewaySandbox({
      config: (baseUrl) => ({
        env: { vars: { FAKE_KEY: "sk-from-env-vars-1" } },
        models: {
          mode: "merge",
          providers: {
            fake: { baseUrl, apiKey: `\${FAKE_KEY}`, api: "openai-completions", models: [model] },
          },
        },
      }),
    });
    box.fake.text("hello");
    const client = await box.connect();
    const final = await runOnce(client, "env-vars-1");
    expect(final.status).toBe("ok");
    expect(lastAuthorization(box)).toBe("Bearer sk-from-env-vars-1");
    const got = await client.request("config.get");
    expect(got.ok).toBe(true);
    expect(JSON.stringify(got)).not.toContain("sk-from-env-vars-1");
  }, 40_000);

  it("the provider's own env var (OPENAI_API_KEY) from env.vars is found at run time and follows a reload", async () => {
    box = await createGatewaySandbox({
      config: (baseUrl) => ({
        // The shorthand form (extra string keys) is not in the static type.
        env: { OPENAI_API_KEY: "sk-openai-1" } as OpenClawConfig["env"],
        models: {
          mode: "merge",
          providers: { openai: { baseUrl, api: "openai-completions", models: [model] } },
        },
        agents: { defaults: { model: "openai/m1" } },
      }),
    });
    box.fake.text("one");
    const client = await box.connect();
    const first = await runOnce(client, "openai-1");
    expect(first.status).toBe("ok");
    expect(lastAuthorization(box)).toBe("Bearer sk-openai-1");
    const { hash } = payloadOf(await client.request("config.get"));
    const raw = JSON.stringify({ env: { OPENAI_API_KEY: "sk-openai-2" } });
    const patched = await client.request("config.patch", { raw, baseHash: hash });
    expect(patched.ok).toBe(true);
    box.fake.text("two");
    const second = await runOnce(client, "openai-2");
    expect(second.status).toBe("ok");
    expect(lastAuthorization(box)).toBe("Bearer sk-openai-2");
  }, 40_000);
});
