// Subscription profiles in a running gateway: an OAuth profile whose access token is about to
// expire is refreshed (through pi-ai's registry, a fake token server) before the model call, which
// then carries the new token; `/model <ref>@<profile>` pins an OAuth profile; `auth.order` is
// exclusive; `models.list` names the credential each model would use, with the session's pin.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registerOAuthProvider, unregisterOAuthProvider } from "@mariozechner/pi-ai/oauth";
import { afterEach, describe, expect, it } from "vitest";
import { startGateway } from "../src/gateway/index.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { readAuthStore, setAuthProfile } from "../src/runtime/models/auth-store.js";
import { fakeOAuthProvider } from "./helpers/fake-oauth-provider.mjs";
import { type FakeOAuthServer, startFakeOAuthServer } from "./helpers/fake-oauth-server.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf as p,
  sendChat,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
let oauth: FakeOAuthServer | undefined;
afterEach(async () => {
  unregisterOAuthProvider("fake");
  await box?.close();
  await oauth?.close();
  box = undefined;
  oauth = undefined;
});

/** The fake model server's provider `fake` with no configured key: profiles hold the credentials. */
function keylessFake(extra: Partial<OpenClawConfig> = {}) {
  return (baseUrl: string): Partial<OpenClawConfig> => ({
    models: {
      mode: "merge",
      providers: {
        fake: {
          baseUrl,
          api: "openai-completions",
          models: [
            { id: "m1", name: "m1", contextWindow: 32000, maxTokens: 1024 },
            { id: "m2", name: "m2", contextWindow: 32000, maxTokens: 1024 },
          ],
        },
      },
    },
    ...extra,
  });
}

async function withOAuthProfile(sandbox: GatewaySandbox, expiresIn: number) {
  oauth = await startFakeOAuthServer();
  // The OAuth provider for the model provider `fake`, as a plugin would register it.
  registerOAuthProvider(fakeOAuthProvider({ id: "fake", baseUrl: oauth.url }));
  const agentDir = join(sandbox.stateDir, "agents", "main", "agent");
  setAuthProfile({
    agentDir,
    profileId: "fake:key",
    profile: { type: "api_key", provider: "fake", key: "sk-key" },
  });
  setAuthProfile({
    agentDir,
    profileId: "fake:sub",
    profile: {
      type: "oauth",
      provider: "fake",
      ...oauth.issueTokens(),
      expires: Date.now() + expiresIn,
      accountId: "acct-1",
    },
  });
  return agentDir;
}

const bearer = (sandbox: GatewaySandbox, index: number) =>
  sandbox.fake.chatRequests[index]?.headers.authorization;

describe("OAuth profiles in the gateway", () => {
  it("an OAuth profile near expiry is refreshed before the call; /model …@profile pins it", async () => {
    box = await createGatewaySandbox({ config: keylessFake() });
    // 60 s left: inside the refresh margin.
    const agentDir = await withOAuthProfile(box, 60_000);
    box.fake.text("a").text("b");
    const client = await box.connect();
    expect((await sendChat(client, "/model fake/m2@fake:sub")).text).toContain(
      "(auth profile fake:sub)",
    );
    await sendChat(client, "hello");
    expect(oauth?.refreshCalls()).toBe(1);
    expect(bearer(box, 0)).toBe("Bearer access-2");
    const stored = readAuthStore(agentDir).store.profiles["fake:sub"];
    expect(stored).toMatchObject({ access: "access-2", refresh: "refresh-2", accountId: "acct-1" });
    // Fresh now: the next turn uses the stored token without another refresh.
    await sendChat(client, "again");
    expect(oauth?.refreshCalls()).toBe(1);
    expect(bearer(box, 1)).toBe("Bearer access-2");
  });

  it("models.list names each model's credential: auth.order, then the session's pin", async () => {
    box = await createGatewaySandbox({
      config: keylessFake({ auth: { order: { fake: ["fake:sub", "fake:key"] } } }),
    });
    await withOAuthProfile(box, 3_600_000);
    const client = await box.connect();
    type Row = { provider: string; id: string; auth?: Record<string, unknown> };
    const rows = (res: unknown) =>
      (p(res as never).models as Row[]).filter((m) => m.provider === "fake");
    const plain = rows(await client.request("models.list", {}));
    expect(plain.map((m) => m.auth)).toEqual([
      { credential: "fake:sub", source: "profile", kind: "oauth", profileId: "fake:sub" },
      { credential: "fake:sub", source: "profile", kind: "oauth", profileId: "fake:sub" },
    ]);
    box.fake.text("ok");
    await sendChat(client, "/model fake/m1@fake:key");
    const pinned = rows(await client.request("models.list", { sessionKey: "agent:main:main" }));
    expect(pinned[0]?.auth).toEqual({
      credential: "fake:key",
      source: "profile",
      kind: "api_key",
      profileId: "fake:key",
      pinned: true,
    });
    const unknown = await client.request("models.list", { agentId: "nope" });
    expect(unknown.ok).toBe(false);
  });

  it("a legacy auth.json is migrated when the gateway starts, and its key is used", async () => {
    box = await createGatewaySandbox({ config: keylessFake() });
    await box.gw.close("restart");
    const agentDir = join(box.stateDir, "agents", "main", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, "auth.json"),
      JSON.stringify({ fake: { type: "api_key", key: "sk-legacy" } }),
    );
    const gw = await startGateway({ env: box.env, port: 0, watchConfig: false });
    try {
      await gw.core.runtime.preload();
      expect(readAuthStore(agentDir).store.profiles["fake:default"]).toEqual({
        type: "api_key",
        provider: "fake",
        key: "sk-legacy",
      });
      expect(existsSync(join(agentDir, "auth.json"))).toBe(false);
      expect(existsSync(join(agentDir, "auth.json.migrated"))).toBe(true);
    } finally {
      await gw.close("test done");
    }
  });
});
