// `pincer models auth login` as a real process (the compiled CLI, pi-ai's registry preloaded with a
// fake OAuth provider) on a headless host: it prints the URL, the user logs in elsewhere and pastes
// the redirect URL on stdin, and the OAuth profile lands in the agent's auth-profiles.json.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOAuthServer, startFakeOAuthServer } from "./helpers/fake-oauth-server.js";

const root = fileURLToPath(new URL("..", import.meta.url));
// The tsc output, not the dist/bin bundle: the bundle carries its own copy of pi-ai, whose OAuth
// registry a preloaded module importing pi-ai from node_modules cannot reach.
const bin = join(root, "dist", "cli", "main.js");
const REGISTER = fileURLToPath(new URL("./fixtures/register-fake-oauth.mjs", import.meta.url));

let server: FakeOAuthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("pincer models auth login (process)", () => {
  it("headless: prints the URL, takes the pasted redirect URL from stdin, stores the profile", async () => {
    server = await startFakeOAuthServer({ email: "me@example.com" });
    const sb = createCliSandbox();
    sb.writeConfig(JSON.stringify({ agents: { list: [{ id: "main" }] } }));
    const child = spawn(
      process.execPath,
      [
        "--import",
        REGISTER,
        bin,
        "models",
        "auth",
        "login",
        "--provider",
        "fake-oauth",
        "--no-browser",
      ],
      { env: { PATH: process.env.PATH ?? "", ...sb.env, FAKE_OAUTH_URL: server.url } },
    );
    let stdout = "";
    let stderr = "";
    let pasted = false;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const url = stdout.split("\n").find((line) => line.includes("/authorize?"));
      if (url && !pasted) {
        pasted = true;
        // The browser on another machine: it ends on the redirect URL, which the user pastes.
        void fetch(url, { redirect: "manual" }).then((res) => {
          child.stdin.end(`${res.headers.get("location")}\n`);
        });
      }
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect({ code, stderr }).toMatchObject({ code: 0 });
    expect(stderr).toContain("paste the URL the browser was sent to");
    expect(stdout.trim().split("\n").at(-1)).toBe("fake-oauth:default");
    const store = JSON.parse(
      readFileSync(join(sb.stateDir, "agents", "main", "agent", "auth-profiles.json"), "utf8"),
    );
    expect(store.profiles["fake-oauth:default"]).toMatchObject({
      type: "oauth",
      provider: "fake-oauth",
      access: "access-1",
      refresh: "refresh-1",
      accountId: "acct-1",
      email: "me@example.com",
    });
    expect(stdout + stderr).not.toContain("refresh-1");
  });
});
