// Opens a gateway WebSocket with chosen request headers (Origin, Host, X-Forwarded-For) and source
// address: resolves with the connected test client (after connect.challenge) or the HTTP refusal.
import WebSocket from "ws";
import { TestClient } from "./gateway-sandbox.js";

/** How the upgrade went: a connected client, or the status and body of the refusal. */
export type UpgradeOutcome =
  | { ok: true; client: TestClient }
  | { ok: false; status: number; body: string };

/** Opens `url` with `headers` (and `localAddress`, e.g. 127.0.0.2) and waits for the outcome. */
export function openWith(
  url: string,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    ws.once("unexpected-response", (req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => {
        req.destroy();
        resolve({ ok: false, status: res.statusCode ?? 0, body });
      });
    });
    ws.once("open", () => {
      const client = new TestClient(ws);
      client
        .waitFor((frame) => frame.type === "event" && frame.event === "connect.challenge")
        .then(() => resolve({ ok: true, client }), reject);
    });
    ws.on("error", (err) => reject(err));
  });
}

/** Like {@link openWith} but throws unless the upgrade was accepted. */
export async function openClientWith(
  url: string,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<TestClient> {
  const outcome = await openWith(url, options);
  if (!outcome.ok) throw new Error(`upgrade refused: ${outcome.status} ${outcome.body}`);
  return outcome.client;
}
