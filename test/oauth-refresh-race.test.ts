// Two real processes refreshing the same OAuth profile at once (the built dist, pi-ai's registry
// with a fake provider preloaded) against a fake token server that invalidates a refresh token
// once used: the credential lock lets exactly one refresh through and both get the same token.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { setAuthProfile } from "../src/runtime/models/auth-store.js";
import { type FakeOAuthServer, startFakeOAuthServer } from "./helpers/fake-oauth-server.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const CHILD = fileURLToPath(new URL("./fixtures/oauth-refresh-child.mjs", import.meta.url));
const REGISTER = fileURLToPath(new URL("./fixtures/register-fake-oauth.mjs", import.meta.url));

let server: FakeOAuthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Child {
  ready: Promise<void>;
  go: () => void;
  result: Promise<{ ok: boolean; apiKey?: string; refreshed?: boolean; error?: string }>;
}

function startChild(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ["--import", REGISTER, CHILD], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (stdout.startsWith("ready\n")) markReady();
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const result = new Promise<Child["result"] extends Promise<infer R> ? R : never>(
    (resolve, reject) => {
      child.once("exit", (code) => {
        const line = stdout.split("\n").filter(Boolean).at(-1) ?? "";
        if (code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
        else resolve(JSON.parse(line));
      });
    },
  );
  return { ready, go: () => child.stdin.end("go\n"), result };
}

describe("OAuth refresh across processes", () => {
  it("two processes refreshing at once make exactly one refresh call and share its token", async () => {
    server = await startFakeOAuthServer({ refreshDelayMs: 300 });
    const agentDir = join(makeTempDir("pincer-race-"), "agent");
    const tokens = server.issueTokens();
    setAuthProfile({
      agentDir,
      profileId: "fake-oauth:default",
      profile: {
        type: "oauth",
        provider: "fake-oauth",
        ...tokens,
        expires: Date.now() - 1000,
        accountId: "acct-1",
      },
    });
    const env = {
      FAKE_OAUTH_URL: server.url,
      AGENT_DIR: agentDir,
      PROFILE_ID: "fake-oauth:default",
    };
    const children = [startChild(env), startChild(env)];
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const results = await Promise.all(children.map((child) => child.result));
    expect(server.refreshCalls()).toBe(1);
    expect(server.rejectedRefreshes()).toBe(0);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(results[0]?.apiKey).toBe("access-2");
    expect(results[1]?.apiKey).toBe("access-2");
    expect(results.filter((r) => r.refreshed)).toHaveLength(1);
    const stored = JSON.parse(readFileSync(join(agentDir, "auth-profiles.json"), "utf8"));
    expect(stored.profiles["fake-oauth:default"]).toMatchObject({
      access: "access-2",
      refresh: "refresh-2",
      accountId: "acct-1",
    });
  });
});
