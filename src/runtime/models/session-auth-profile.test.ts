import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { resolveCredentials } from "./credentials.js";
import {
  checkAuthProfileChoice,
  keptAuthProfileOverride,
  splitModelAndProfile,
} from "./session-auth-profile.js";

const NOW = Date.parse("2026-11-30T12:00:00Z");

function agentWith(store: unknown): string {
  const agentDir = join(makeTempDir("pincer-pin-"), "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "auth-profiles.json"), JSON.stringify(store));
  return agentDir;
}

const PROFILES = {
  "openai:home": { type: "api_key", provider: "openai", key: "sk-home" },
  "openai:work": { type: "api_key", provider: "openai", key: "sk-work" },
  "anthropic:me": { type: "token", provider: "anthropic", token: "tok" },
  "openai:broken": { type: "future", provider: "openai" },
};

describe("checkAuthProfileChoice", () => {
  const cfg: OpenClawConfig = {};
  it("accepts a usable profile of the provider and refuses the others, naming why", () => {
    const agentDir = agentWith({ version: 1, profiles: PROFILES });
    const check = (provider: string, profileId: string) =>
      checkAuthProfileChoice({ agentDir, cfg }, { provider, profileId });
    expect(check("openai", "openai:work")).toEqual({ ok: true, profileId: "openai:work" });
    expect(check("OpenAI", "openai:work").ok).toBe(true);
    const foreign = check("openai", "anthropic:me");
    expect(foreign).toEqual({
      ok: false,
      error: 'auth profile "anthropic:me" is for provider anthropic, not openai',
    });
    const missing = check("openai", "openai:nope");
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.error).toContain("openai profiles: openai:home, openai:work");
    const none = check("groq", "groq:x");
    expect(!none.ok && none.error).toContain("the agent has no groq profile");
    const broken = check("openai", "openai:broken");
    expect(!broken.ok && broken.error).toContain("not a usable credential");
  });

  it("refuses a profile an explicit order leaves out (store order, else auth.order)", () => {
    const agentDir = agentWith({
      version: 1,
      profiles: PROFILES,
      order: { openai: ["openai:home"] },
    });
    const out = checkAuthProfileChoice(
      { agentDir, cfg },
      { provider: "openai", profileId: "openai:work" },
    );
    expect(!out.ok && out.error).toContain("not in the openai profile order (openai:home)");
    const plain = agentWith({ version: 1, profiles: PROFILES });
    const byConfig = checkAuthProfileChoice(
      { agentDir: plain, cfg: { auth: { order: { openai: ["openai:work"] } } } },
      { provider: "openai", profileId: "openai:home" },
    );
    expect(byConfig.ok).toBe(false);
  });

  it("refuses when the store cannot be read", () => {
    const agentDir = join(makeTempDir("pincer-pin-"), "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "auth-profiles.json"), "{not json");
    const out = checkAuthProfileChoice(
      { agentDir, cfg },
      { provider: "openai", profileId: "openai:work" },
    );
    expect(!out.ok && out.error).toContain("cannot be read");
  });
});

describe("the pin kept per provider and the typed split", () => {
  it("keeps a pin of the new provider and drops another's or a vanished one", () => {
    const scope = { agentDir: agentWith({ version: 1, profiles: PROFILES }), cfg: {} };
    const keep = (current: string | undefined, provider: string) =>
      keptAuthProfileOverride(scope, { current, provider });
    expect(keep("openai:work", "openai")).toBe("openai:work");
    expect(keep("openai:work", "anthropic")).toBeUndefined();
    expect(keep("openai:gone", "openai")).toBeUndefined();
    expect(keep(undefined, "openai")).toBeUndefined();
  });

  it("splits at the last @ unless the whole text is a model", () => {
    const none = () => false;
    expect(splitModelAndProfile("openai/gpt-x@openai:work", none)).toEqual({
      model: "openai/gpt-x",
      profileId: "openai:work",
    });
    expect(splitModelAndProfile("@openai:work", none)).toEqual({
      model: "",
      profileId: "openai:work",
    });
    expect(splitModelAndProfile("sonnet", none)).toEqual({ model: "sonnet" });
    expect(splitModelAndProfile("x@", none)).toEqual({ model: "x@" });
    const vertex = "google-vertex/claude-3-5-sonnet@20240620";
    expect(splitModelAndProfile(vertex, (raw) => raw === vertex)).toEqual({ model: vertex });
    expect(splitModelAndProfile(`${vertex}@gv:main`, (raw) => raw === vertex)).toEqual({
      model: vertex,
      profileId: "gv:main",
    });
  });
});

describe("resolveCredentials with a preferred profile", () => {
  const cfg: OpenClawConfig = {};
  const resolve = (agentDir: string, provider: string, preferProfileId: string) =>
    resolveCredentials({ agentDir, provider, cfg, env: {}, now: NOW, preferProfileId });

  it("moves the pinned profile first, ahead of lastGood", () => {
    const agentDir = agentWith({
      version: 1,
      profiles: PROFILES,
      lastGood: { openai: "openai:home" },
    });
    const out = resolve(agentDir, "openai", "openai:work");
    expect(out.candidates.map((c) => c.id)).toEqual(["openai:work", "openai:home"]);
    expect(out.preferred).toEqual({ profileId: "openai:work", used: true });
  });

  it("a pin in cooldown or missing leaves the normal order and says why; another provider's is ignored", () => {
    const agentDir = agentWith({
      version: 1,
      profiles: PROFILES,
      usageStats: {
        "openai:work": { cooldownUntil: NOW + 60_000, lastFailureReason: "rate_limit" },
      },
    });
    const cooled = resolve(agentDir, "openai", "openai:work");
    expect(cooled.candidates.map((c) => c.id)).toEqual(["openai:home"]);
    expect(cooled.preferred).toMatchObject({ profileId: "openai:work", used: false });
    expect(cooled.preferred?.used === false && cooled.preferred.reason).toContain("cooldown");
    const gone = resolve(agentDir, "openai", "openai:gone");
    expect(gone.preferred?.used === false && gone.preferred.reason).toContain(
      "no profile openai:gone",
    );
    const foreign = resolve(agentDir, "anthropic", "openai:work");
    expect(foreign.preferred).toBeUndefined();
    expect(foreign.candidates.map((c) => c.id)).toEqual(["anthropic:me"]);
  });
});
