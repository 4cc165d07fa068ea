import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { setAuthProfile } from "./auth-store.js";
import { refreshOAuthProfile } from "./oauth.js";

const NOW = Date.parse("2026-11-30T12:00:00Z");

function agentWithOAuth(expires: number): string {
  const agentDir = join(makeTempDir("pincer-oauth-"), "agent");
  setAuthProfile({
    agentDir,
    profileId: "openai-codex:me",
    profile: {
      type: "oauth",
      provider: "openai-codex",
      access: "old",
      refresh: "r1",
      expires,
      accountId: "acct",
    },
  });
  return agentDir;
}

describe("refreshOAuthProfile", () => {
  it("uses a valid access token as is", async () => {
    const agentDir = agentWithOAuth(NOW + 3_600_000);
    const result = await refreshOAuthProfile({
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: async () => {
        throw new Error("must not refresh");
      },
    });
    expect(result).toEqual({ ok: true, apiKey: "old", expires: NOW + 3_600_000, refreshed: false });
  });

  it("refreshes an expired token and writes the new tokens back, keeping extra fields", async () => {
    const agentDir = agentWithOAuth(NOW - 1);
    const result = await refreshOAuthProfile({
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: async ({ provider, credentials }) => {
        expect(provider).toBe("openai-codex");
        expect(credentials).toMatchObject({ refresh: "r1", accountId: "acct" });
        return {
          credentials: { ...credentials, access: "new", refresh: "r2", expires: NOW + 3_600_000 },
          apiKey: "new",
        };
      },
    });
    expect(result).toEqual({ ok: true, apiKey: "new", expires: NOW + 3_600_000, refreshed: true });
    const saved = JSON.parse(readFileSync(join(agentDir, "auth-profiles.json"), "utf8"));
    expect(saved.profiles["openai-codex:me"]).toEqual({
      type: "oauth",
      provider: "openai-codex",
      access: "new",
      refresh: "r2",
      expires: NOW + 3_600_000,
      accountId: "acct",
    });
  });

  it("a failed refresh is an error value and leaves the store untouched", async () => {
    const agentDir = agentWithOAuth(NOW - 1);
    const before = readFileSync(join(agentDir, "auth-profiles.json"), "utf8");
    const result = await refreshOAuthProfile({
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: async () => {
        throw new Error("invalid_grant");
      },
    });
    expect(result).toEqual({
      ok: false,
      error: "refreshing openai-codex:me failed: invalid_grant",
    });
    expect(readFileSync(join(agentDir, "auth-profiles.json"), "utf8")).toBe(before);
    expect(await refreshOAuthProfile({ agentDir, profileId: "nope", now: NOW })).toMatchObject({
      ok: false,
    });
  });
});
