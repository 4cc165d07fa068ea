// `models auth login` against a fake authorization/token server: the fake provider is registered
// in pi-ai's OAuth registry (registerOAuthProvider), so the real command, callbacks and store
// writes run; the test plays the browser (following the printed URL) or the user pasting the URL.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerOAuthProvider, unregisterOAuthProvider } from "@mariozechner/pi-ai/oauth";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { fakeOAuthProvider } from "../../../test/helpers/fake-oauth-provider.mjs";
import {
  type FakeOAuthServer,
  startFakeOAuthServer,
} from "../../../test/helpers/fake-oauth-server.js";
import { fakeProcessIo } from "../../../test/helpers/fake-process-io.js";
import type { CliContext } from "../command-context.js";
import { run as loginRun } from "./auth-login.js";

const login = (ctx: CliContext, input: { args: string[]; opts: Record<string, unknown> }) =>
  loginRun(ctx, { args: input.args, opts: input.opts as never });

let server: FakeOAuthServer | undefined;
afterEach(async () => {
  unregisterOAuthProvider("fake-oauth");
  await server?.close();
  server = undefined;
});

async function setup(email?: string) {
  server = await startFakeOAuthServer(email ? { email } : {});
  registerOAuthProvider(fakeOAuthProvider({ baseUrl: server.url }));
  const sb = createCliSandbox();
  sb.writeConfig(
    JSON.stringify({ agents: { list: [{ id: "main", default: true }, { id: "work" }] } }),
  );
  return sb;
}

/** A context whose stdout hands each printed authorize URL to `onUrl`, and whose stdin is `stdin`. */
function loginContext(params: {
  env: Record<string, string>;
  onUrl: (url: string) => void;
  stdin: Promise<string>;
}) {
  const out = { stdout: "", stderr: "" };
  const ctx: CliContext = {
    ...fakeProcessIo(),
    env: params.env,
    isTty: false,
    color: false,
    readStdin: () => params.stdin,
    stdout: (text) => {
      out.stdout += text;
      const url = text.trim();
      if (url.includes("/authorize?")) params.onUrl(url);
    },
    stderr: (text) => {
      out.stderr += text;
    },
  };
  return { ctx, out };
}

const never = new Promise<string>(() => {});

function storedProfiles(stateDir: string, agentId: string) {
  const path = join(stateDir, "agents", agentId, "agent", "auth-profiles.json");
  return JSON.parse(readFileSync(path, "utf8")).profiles;
}

describe("pincer models auth login", () => {
  it("the browser's redirect to the 127.0.0.1 callback completes the login; the OAuth profile is stored", async () => {
    const sb = await setup();
    let callbackPort = 0;
    const { ctx, out } = loginContext({
      env: sb.env,
      stdin: never,
      onUrl: (url) => {
        callbackPort = Number(new URL(new URL(url).searchParams.get("redirect_uri") ?? "").port);
        void fetch(url); // the browser: the authorize page redirects to the callback server
      },
    });
    const code = await login(ctx, {
      args: [],
      opts: { provider: "fake-oauth", agent: "work", browser: false },
    });
    expect(code).toBe(0);
    expect(out.stdout).toMatch(/\nfake-oauth:default\n$/);
    expect(out.stdout + out.stderr).not.toContain("access-1");
    expect(storedProfiles(sb.stateDir, "work")["fake-oauth:default"]).toMatchObject({
      type: "oauth",
      provider: "fake-oauth",
      access: "access-1",
      refresh: "refresh-1",
      accountId: "acct-1",
      expires: expect.any(Number),
    });
    // One use: the callback server is gone once the login ended.
    await expect(fetch(`http://127.0.0.1:${callbackPort}/callback`)).rejects.toThrow();
  });

  it("headless: the redirect URL pasted on stdin completes the login (the callback is never hit)", async () => {
    const sb = await setup("me@example.com");
    let paste: (text: string) => void = () => {};
    const stdin = new Promise<string>((resolve) => {
      paste = resolve;
    });
    const { ctx } = loginContext({
      env: sb.env,
      stdin,
      onUrl: (url) => {
        // The browser on another machine ends on the redirect URL; the user copies it here.
        void fetch(url, { redirect: "manual" }).then((res) =>
          paste(`${res.headers.get("location")}\n`),
        );
      },
    });
    const code = await login(ctx, {
      args: [],
      opts: { provider: "fake-oauth", profileId: "personal", browser: false },
    });
    expect(code).toBe(0);
    expect(storedProfiles(sb.stateDir, "main")["fake-oauth:personal"]).toMatchObject({
      access: "access-1",
      email: "me@example.com",
    });
  });

  it("a pasted URL with another login's state is refused and nothing is stored", async () => {
    const sb = await setup();
    const { ctx } = loginContext({
      env: sb.env,
      stdin: Promise.resolve("http://127.0.0.1:1/callback?code=code-1&state=forged\n"),
      onUrl: () => {},
    });
    await expect(
      login(ctx, { args: [], opts: { provider: "fake-oauth", browser: false } }),
    ).rejects.toThrow(/Fake OAuth login failed: State mismatch/);
    expect(() => storedProfiles(sb.stateDir, "main")).toThrow(/ENOENT/);
  });

  it("gives up at the deadline with a clear error and closes the callback server", async () => {
    const sb = await setup();
    let callbackPort = 0;
    const { ctx } = loginContext({
      env: sb.env,
      stdin: never,
      onUrl: (url) => {
        callbackPort = Number(new URL(new URL(url).searchParams.get("redirect_uri") ?? "").port);
      },
    });
    await expect(
      login(ctx, { args: [], opts: { provider: "fake-oauth", browser: false, timeout: "300ms" } }),
    ).rejects.toThrow(/no browser callback or pasted redirect URL within 300 ms/);
    await expect(fetch(`http://127.0.0.1:${callbackPort}/callback`)).rejects.toThrow();
  });

  it("a provider without a login flow, or a bad --timeout, is named", async () => {
    const sb = await setup();
    const { ctx } = loginContext({ env: sb.env, stdin: never, onUrl: () => {} });
    await expect(login(ctx, { args: [], opts: { provider: "openrouter" } })).rejects.toThrow(
      /provider "openrouter" has no login flow \(logins: .*anthropic.*fake-oauth.*openai-codex.*\); for an API key or token use/,
    );
    await expect(
      login(ctx, { args: [], opts: { provider: "fake-oauth", timeout: "soon" } }),
    ).rejects.toThrow(/--timeout "soon" is not a duration/);
  });
});
