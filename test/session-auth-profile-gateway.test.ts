// A session's auth profile pin over chat.send with the fake model server: `/model <ref>@<profile>`
// stores it and the next request carries that profile's key; another provider's profile or an
// unknown one is refused and nothing changes; a model change within the provider keeps the pin,
// another provider drops it; `/new <model>@<profile>` and `sessions.patch {authProfileOverride}`
// check it the same way; a pin that is gone at run time falls back to the normal order, logged.
// Over the fake Telegram Bot API a DM `/model …@<profile>` pins it for the DM session the same way.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry } from "../src/lib/logger.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { setAuthProfile, updateAuthStore } from "../src/runtime/models/auth-store.js";
import { startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  sendChat,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const send = async (client: TestClient, message: string) => (await sendChat(client, message)).text;

/** Two providers on the fake server, neither with a configured key: profiles hold the keys. */
function twoProviders(baseUrl: string): Partial<OpenClawConfig> {
  const models = (ids: string[]) =>
    ids.map((id) => ({ id, name: id, contextWindow: 32000, maxTokens: 1024 }));
  return {
    models: {
      mode: "merge",
      providers: {
        fake: { baseUrl, api: "openai-completions", models: models(["m1", "m2"]) },
        other: { baseUrl, api: "openai-completions", models: models(["o1"]) },
      },
    },
  };
}

function agentDir(sandbox: GatewaySandbox): string {
  return join(sandbox.stateDir, "agents", "main", "agent");
}

/** fake:home first in the normal order (added first), fake:work second, one `other` profile. */
function addProfiles(sandbox: GatewaySandbox): void {
  const dir = agentDir(sandbox);
  setAuthProfile({
    agentDir: dir,
    profileId: "fake:home",
    profile: { type: "api_key", provider: "fake", key: "sk-home" },
  });
  setAuthProfile({
    agentDir: dir,
    profileId: "fake:work",
    profile: { type: "api_key", provider: "fake", key: "sk-work" },
  });
  setAuthProfile({
    agentDir: dir,
    profileId: "other:main",
    profile: { type: "api_key", provider: "other", key: "sk-other" },
  });
}

function bearer(sandbox: GatewaySandbox, index: number): string | undefined {
  return sandbox.fake.chatRequests[index]?.headers.authorization;
}

function model(sandbox: GatewaySandbox, index: number): unknown {
  return (sandbox.fake.chatRequests[index]?.body as Record<string, unknown> | undefined)?.model;
}

function entry(sandbox: GatewaySandbox) {
  return sandbox.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
}

describe("session auth profile pin over chat.send", () => {
  it("/model <ref>@<profile> pins the profile and the next request carries its key", async () => {
    box = await createGatewaySandbox({ config: twoProviders });
    addProfiles(box);
    box.fake.text("a").text("b").text("c").text("d");
    const client = await box.connect();
    await send(client, "hello");
    expect(bearer(box, 0)).toBe("Bearer sk-home");

    expect(await send(client, "/model fake/m2@fake:work")).toContain(
      "Model set to fake/m2 (auth profile fake:work)",
    );
    expect(entry(box)).toMatchObject({ modelOverride: "m2", authProfileOverride: "fake:work" });
    expect(await send(client, "/model")).toContain("Auth profile: fake:work");
    expect(await send(client, "/status")).toContain("auth profile fake:work");
    const list = await send(client, "/model list");
    expect(list).toContain("fake: fake:home, fake:work");
    expect(list).toContain("other: other:main");
    await send(client, "on work?");
    expect(bearer(box, 1)).toBe("Bearer sk-work");
    expect(model(box, 1)).toBe("m2");

    // Refusals name what is wrong and store nothing.
    const foreign = await send(client, "/model fake/m1@other:main");
    expect(foreign).toContain('auth profile "other:main" is for provider other, not fake');
    const unknown = await send(client, "/model fake/m1@fake:nope");
    expect(unknown).toContain('no auth profile "fake:nope"');
    expect(unknown).toContain("fake profiles: fake:home, fake:work");
    expect(entry(box)).toMatchObject({ modelOverride: "m2", authProfileOverride: "fake:work" });

    // Same provider: the pin stays; another provider: it is dropped.
    expect(await send(client, "/model fake/m1")).toContain("(auth profile fake:work)");
    await send(client, "still work?");
    expect(bearer(box, 2)).toBe("Bearer sk-work");
    expect(model(box, 2)).toBe("m1");
    expect(await send(client, "/model other/o1")).toContain("fake:work is another provider's");
    expect(entry(box)?.authProfileOverride).toBeUndefined();
    await send(client, "other?");
    expect(bearer(box, 3)).toBe("Bearer sk-other");
    expect(box.fake.chatRequests).toHaveLength(4);
  });

  it("/new <model>@<profile> starts the new session pinned; a wrong profile resets nothing", async () => {
    box = await createGatewaySandbox({ config: twoProviders });
    addProfiles(box);
    box.fake.text("fresh");
    const client = await box.connect();
    await send(client, "/model fake/m1");
    const before = entry(box)?.sessionId;
    expect(await send(client, "/new fake/m2@other:main")).toContain("nothing was reset");
    expect(entry(box)?.sessionId).toBe(before);
    expect(entry(box)?.authProfileOverride).toBeUndefined();
    const fresh = await send(client, "/new fake/m2@fake:work");
    expect(fresh).toContain("Model: fake/m2 (auth profile fake:work)");
    expect(entry(box)?.sessionId).not.toBe(before);
    await send(client, "go");
    expect(bearer(box, 0)).toBe("Bearer sk-work");
  });

  it("sessions.patch {authProfileOverride} is checked against the session's provider", async () => {
    box = await createGatewaySandbox({ config: twoProviders });
    addProfiles(box);
    box.fake.text("x");
    const client = await box.connect();
    await send(client, "/model fake/m1");
    const foreign = await client.request("sessions.patch", {
      key: "main",
      authProfileOverride: "other:main",
    });
    expect(foreign.ok).toBe(false);
    expect(JSON.stringify(foreign.error)).toContain("is for provider other, not fake");
    const missing = await client.request("sessions.patch", {
      key: "main",
      authProfileOverride: "fake:gone",
    });
    expect(missing.ok).toBe(false);
    expect(entry(box)?.authProfileOverride).toBeUndefined();
    // With a model in the same patch, the profile is checked against that model's provider.
    const both = await client.request("sessions.patch", {
      key: "main",
      model: "other/o1",
      authProfileOverride: "other:main",
    });
    expect(both.ok).toBe(true);
    expect(entry(box)).toMatchObject({
      providerOverride: "other",
      authProfileOverride: "other:main",
    });
    const pinned = await client.request("sessions.patch", {
      key: "main",
      model: "fake/m1",
      authProfileOverride: "fake:work",
    });
    expect(pinned.ok).toBe(true);
    await send(client, "patched");
    expect(bearer(box, 0)).toBe("Bearer sk-work");
    const cleared = await client.request("sessions.patch", {
      key: "main",
      authProfileOverride: null,
    });
    expect(cleared.ok).toBe(true);
    expect(entry(box)?.authProfileOverride).toBeUndefined();
  });

  it("a pin that is gone at run time falls back to the normal order and is logged", async () => {
    const lines: LogEntry[] = [];
    box = await createGatewaySandbox({
      config: twoProviders,
      options: { logger: createEntryLogger((line) => lines.push(line)) },
    });
    addProfiles(box);
    box.fake.text("fallback").text("cooled");
    const client = await box.connect();
    await send(client, "/model fake/m1@fake:work");
    updateAuthStore(agentDir(box), (store) => {
      delete store.profiles["fake:work"];
    });
    expect(await send(client, "who?")).toBe("fallback");
    expect(bearer(box, 0)).toBe("Bearer sk-home");
    const warned = lines.find((line) => line.msg.includes("auth profile override not usable"));
    expect(warned?.fields).toMatchObject({ profileId: "fake:work", provider: "fake" });
    expect(String(warned?.fields.reason)).toContain("no profile fake:work");
    rmSync(join(agentDir(box), "auth-profiles.json"));
  });
});

describe("session auth profile pin over Telegram", () => {
  it("a DM /model <ref>@<profile> pins it; the next DM turn carries its key; a wrong one is refused", async () => {
    const telegram = await startFakeTelegram();
    const token = "111:main-token";
    telegram.addBot(token, { id: 111000, username: "pincer_main_bot" });
    try {
      box = await createGatewaySandbox({
        config: (baseUrl) => ({
          ...twoProviders(baseUrl),
          channels: {
            telegram: {
              apiRoot: telegram.apiRoot,
              accounts: {
                default: { botToken: token, dmPolicy: "allowlist", allowFrom: [ALICE.id] },
              },
            },
          } as OpenClawConfig["channels"],
        }),
      });
      addProfiles(box);
      box.fake.text("on work");
      await telegram.waitForCall("getUpdates", (c) => c.token === token);
      const sent = (nth: number) =>
        telegram.waitForCall(
          "sendMessage",
          (c) => telegram.callsOf("sendMessage", token).indexOf(c) === nth - 1,
        );
      telegram.pushMessage(token, privateMessage({ text: "/model fake/m2@other:main" }));
      expect(String((await sent(1)).params.text)).toContain("is for provider other, not fake");
      telegram.pushMessage(token, privateMessage({ text: "/model fake/m2@fake:work" }));
      expect(String((await sent(2)).params.text)).toContain("(auth profile fake:work)");
      const dm = box.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
      expect(dm).toMatchObject({ modelOverride: "m2", authProfileOverride: "fake:work" });
      telegram.pushMessage(token, privateMessage({ text: "hello" }));
      expect(String((await sent(3)).params.text)).toContain("on work");
      expect(bearer(box, 0)).toBe("Bearer sk-work");
      expect(model(box, 0)).toBe("m2");
    } finally {
      await box?.close();
      box = undefined;
      await telegram.close();
    }
  });
});
