import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { setAuthProfile, updateAuthStore } from "./auth-store.js";
import { OAUTH_REFRESH_MARGIN_MS, type OAuthRefresher, refreshOAuthProfile } from "./oauth.js";
import { authStoreLockPath } from "./refresh-lock.js";

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

  it("refreshes ahead of expiry: a token inside the margin is renewed", async () => {
    const agentDir = agentWithOAuth(NOW + OAUTH_REFRESH_MARGIN_MS - 1);
    let calls = 0;
    const result = await refreshOAuthProfile({
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: async ({ credentials }) => {
        calls++;
        return {
          credentials: { ...credentials, access: "new", expires: NOW + 3_600_000 },
          apiKey: "new",
        };
      },
    });
    expect(calls).toBe(1);
    expect(result).toMatchObject({ ok: true, apiKey: "new", refreshed: true });
  });
});

describe("refreshOAuthProfile under the credential lock", () => {
  const rotating =
    (counter: { calls: number }): OAuthRefresher =>
    async ({ credentials }) => {
      counter.calls++;
      await new Promise((resolve) => setTimeout(resolve, 30));
      const n = counter.calls;
      return {
        credentials: {
          ...credentials,
          access: `a${n}`,
          refresh: `r${n + 1}`,
          expires: NOW + 3_600_000,
        },
        apiKey: `a${n}`,
      };
    };

  it("two concurrent refreshes in one process spend the refresh token once and share the result", async () => {
    const agentDir = agentWithOAuth(NOW - 1);
    const counter = { calls: 0 };
    const input = {
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: rotating(counter),
    };
    const [a, b] = await Promise.all([refreshOAuthProfile(input), refreshOAuthProfile(input)]);
    expect(counter.calls).toBe(1);
    expect(a).toMatchObject({ ok: true, apiKey: "a1" });
    expect(b).toMatchObject({ ok: true, apiKey: "a1" });
    expect([a, b].filter((r) => r.ok && r.refreshed)).toHaveLength(1);
  });

  it("waits for another holder and uses the tokens it wrote instead of refreshing again", async () => {
    const agentDir = agentWithOAuth(NOW - 1);
    const lockPath = authStoreLockPath(agentDir);
    // Another live process (this test's pid counts as live) holds the lock while it refreshes.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, createdAt: "x", command: "other" }));
    const counter = { calls: 0 };
    const pending = refreshOAuthProfile({
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: rotating(counter),
    });
    await new Promise((resolve) => setTimeout(resolve, 120));
    updateAuthStore(agentDir, (store) => {
      Object.assign(store.profiles["openai-codex:me"] ?? {}, {
        access: "theirs",
        expires: NOW + 3_600_000,
      });
    });
    const { unlinkSync } = await import("node:fs");
    unlinkSync(lockPath);
    expect(await pending).toEqual({
      ok: true,
      apiKey: "theirs",
      expires: NOW + 3_600_000,
      refreshed: false,
    });
    expect(counter.calls).toBe(0);
  });

  it("a lock kept past the wait is an error naming its holder; a dead holder's lock is taken over", async () => {
    const agentDir = agentWithOAuth(NOW - 1);
    const lockPath = authStoreLockPath(agentDir);
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: process.pid, createdAt: "t0", command: "gateway" }),
    );
    const counter = { calls: 0 };
    const input = {
      agentDir,
      profileId: "openai-codex:me",
      now: NOW,
      refresher: rotating(counter),
    };
    expect(await refreshOAuthProfile({ ...input, lockWaitMs: 100 })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /auth-profiles\.json\.lock is held by pid \d+ \(gateway\) since t0/,
      ),
    });
    expect(counter.calls).toBe(0);
    // pid 2^22+1 is above Linux's pid_max: never a running process.
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: 4_194_305, createdAt: "t0", command: "crashed" }),
    );
    expect(await refreshOAuthProfile(input)).toMatchObject({
      ok: true,
      apiKey: "a1",
      refreshed: true,
    });
  });
});
