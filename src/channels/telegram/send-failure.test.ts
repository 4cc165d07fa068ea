// A send that cannot reach Telegram names the cause and the host (DNS, refused, TLS), never
// "timeout": real sockets behind the adapter's apiRoot.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SelfSignedTlsServer,
  startSelfSignedTls,
} from "../../../test/helpers/self-signed-tls.js";
import { silentLogger } from "../../lib/logger.js";
import type { OutboundTarget } from "../index.js";
import { createTelegramAdapter } from "./index.js";

const DM: OutboundTarget = { accountId: "default", peer: { kind: "direct", id: "111" } };
let tlsServer: SelfSignedTlsServer;
let stateDir: string;

beforeAll(async () => {
  tlsServer = await startSelfSignedTls();
  stateDir = mkdtempSync(join(tmpdir(), "pincer-tg-fail-"));
});

afterAll(async () => {
  await tlsServer.close();
  rmSync(stateDir, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
}

async function sendVia(apiRoot: string) {
  const account = await createTelegramAdapter().start({
    channel: "telegram",
    accountId: "default",
    config: { botToken: "123:main", apiRoot },
    stateDir,
    env: {},
    log: silentLogger,
    receive: async () => {},
    syncInbound: () => {},
    report: () => {},
    signal: new AbortController().signal,
  });
  try {
    return await account.send({ target: DM, text: "x" });
  } finally {
    await account.stop();
  }
}

describe("Telegram send failures name their cause", () => {
  it("a refused connection", async () => {
    const port = await closedPort();
    const result = await sendVia(`http://127.0.0.1:${port}`);
    expect(result).toMatchObject({
      ok: false,
      failure: { retryable: true, code: "connection_failed" },
    });
    const message = result.ok ? "" : result.failure.message;
    expect(message).toMatch(/refused \(ECONNREFUSED\)/);
    expect(message).toContain("127.0.0.1");
    expect(message).not.toMatch(/timeout|timed out/i);
  });

  it("an unresolvable host", async () => {
    const result = await sendVia("http://api.telegram-pincer.invalid");
    const message = result.ok ? "" : result.failure.message;
    expect(message).toMatch(
      /DNS lookup of api\.telegram-pincer\.invalid failed \((ENOTFOUND|EAI_AGAIN)\)/,
    );
  });

  it("a self-signed certificate", async () => {
    const result = await sendVia(`https://127.0.0.1:${tlsServer.port}`);
    expect(result).toMatchObject({ ok: false, failure: { code: "connection_failed" } });
    const message = result.ok ? "" : result.failure.message;
    expect(message).toMatch(/TLS handshake with 127\.0\.0\.1/);
  });
});
