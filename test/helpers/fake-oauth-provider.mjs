// A pi-ai OAuth provider (OAuthProviderInterface) whose authorize and token URLs point at a fake
// authorization server (test/helpers/fake-oauth-server.ts). Its login works like pi-ai's Codex
// flow: PKCE, a one-use callback server on 127.0.0.1 (port 0) that checks the state, raced against
// the pasted redirect URL (onManualCodeInput), closed when the flow ends. Plain JS so spawned
// processes can preload it (test/fixtures/register-fake-oauth.mjs). Test helper only.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";

const b64url = (buffer) => buffer.toString("base64url");

function parseRedirect(input) {
  try {
    const url = new URL(input.trim());
    return {
      code: url.searchParams.get("code") ?? undefined,
      state: url.searchParams.get("state") ?? undefined,
    };
  } catch {
    return { code: input.trim() || undefined };
  }
}

async function postForm(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`token endpoint ${res.status}: ${text}`);
  return JSON.parse(text);
}

function toCredentials(json) {
  return {
    access: json.access_token,
    refresh: json.refresh_token,
    expires: Date.now() + json.expires_in * 1000,
    accountId: json.account_id,
    ...(json.email ? { email: json.email } : {}),
  };
}

/** The provider `id` against the fake server at `baseUrl`. */
export function fakeOAuthProvider({ id = "fake-oauth", baseUrl }) {
  return {
    id,
    name: "Fake OAuth",
    usesCallbackServer: true,
    async login(callbacks) {
      const verifier = b64url(randomBytes(32));
      const challenge = b64url(createHash("sha256").update(verifier).digest());
      const state = randomBytes(16).toString("hex");
      let settle;
      const fromCallback = new Promise((resolve) => {
        settle = resolve;
      });
      const server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        if (url.pathname !== "/callback") return res.writeHead(404).end("not found");
        if (url.searchParams.get("state") !== state)
          return res.writeHead(400).end("state mismatch");
        const code = url.searchParams.get("code");
        if (!code) return res.writeHead(400).end("missing code");
        res.writeHead(200).end("logged in");
        settle(code);
      });
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      const redirectUri = `http://127.0.0.1:${server.address().port}/callback`;
      try {
        const authorize = new URL("/authorize", baseUrl);
        authorize.search = new URLSearchParams({
          response_type: "code",
          redirect_uri: redirectUri,
          code_challenge: challenge,
          code_challenge_method: "S256",
          state,
        }).toString();
        callbacks.onAuth({ url: authorize.toString(), instructions: "Complete the fake login." });
        const racers = [fromCallback];
        if (callbacks.onManualCodeInput) {
          racers.push(
            callbacks.onManualCodeInput().then((input) => {
              const parsed = parseRedirect(input);
              if (parsed.state && parsed.state !== state) throw new Error("State mismatch");
              return parsed.code;
            }),
          );
        }
        const code = await Promise.race(racers);
        if (!code) throw new Error("Missing authorization code");
        const json = await postForm(new URL("/token", baseUrl), {
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        });
        return toCredentials(json);
      } finally {
        server.close();
        server.closeAllConnections();
      }
    },
    async refreshToken(credentials) {
      const json = await postForm(new URL("/token", baseUrl), {
        grant_type: "refresh_token",
        refresh_token: credentials.refresh,
      });
      return { ...credentials, ...toCredentials(json) };
    },
    getApiKey(credentials) {
      return credentials.access;
    },
  };
}
