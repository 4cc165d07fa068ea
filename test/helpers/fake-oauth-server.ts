// A fake OAuth authorization + token server on 127.0.0.1:0: /authorize redirects to the given
// redirect_uri with a one-use code and the state; /token exchanges a code (PKCE S256 checked) or a
// refresh token. A refresh token works once (then it is invalid, as real providers do), and every
// refresh call is counted, so a test sees a double refresh. Test helper only.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A running fake server. */
export interface FakeOAuthServer {
  url: string;
  /** Refresh requests received (valid or not). */
  refreshCalls: () => number;
  /** Refresh requests refused because the token was already used or unknown. */
  rejectedRefreshes: () => number;
  /** Issues a valid refresh token (as if from an earlier login) with its access token. */
  issueTokens: () => { access: string; refresh: string };
  close: () => Promise<void>;
}

/** Options of {@link startFakeOAuthServer}. */
export interface FakeOAuthServerOptions {
  /** Delay of a successful refresh response (ms): widens the window two refreshers race in. */
  refreshDelayMs?: number;
  email?: string;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Starts the fake server. */
export async function startFakeOAuthServer(
  options: FakeOAuthServerOptions = {},
): Promise<FakeOAuthServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const validRefresh = new Set<string>();
  let serial = 0;
  let refreshCalls = 0;
  let rejected = 0;
  const issueTokens = () => {
    serial++;
    validRefresh.add(`refresh-${serial}`);
    return { access: `access-${serial}`, refresh: `refresh-${serial}` };
  };
  const tokenJson = () => {
    const { access, refresh } = issueTokens();
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: 3600,
      account_id: "acct-1",
      ...(options.email ? { email: options.email } : {}),
    };
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/authorize") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      const challenge = url.searchParams.get("code_challenge") ?? "";
      const code = `code-${codes.size + 1}`;
      codes.set(code, { challenge, redirectUri });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      target.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: target.toString() }).end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/token") {
      const form = await readForm(req);
      if (form.get("grant_type") === "authorization_code") {
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (
          !grant ||
          grant.challenge !== challenge ||
          grant.redirectUri !== form.get("redirect_uri")
        ) {
          return send(400, { error: "invalid_grant" });
        }
        return send(200, tokenJson());
      }
      if (form.get("grant_type") === "refresh_token") {
        refreshCalls++;
        const token = form.get("refresh_token") ?? "";
        if (!validRefresh.delete(token)) {
          rejected++;
          return send(400, {
            error: "invalid_grant",
            error_description: "refresh token already used",
          });
        }
        const body = tokenJson();
        if (options.refreshDelayMs) await new Promise((r) => setTimeout(r, options.refreshDelayMs));
        return send(200, body);
      }
    }
    send(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refreshCalls: () => refreshCalls,
    rejectedRefreshes: () => rejected,
    issueTokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
