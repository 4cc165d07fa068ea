// A TLS server on 127.0.0.1 with a self-signed certificate generated at test time (openssl), for tests
// that check a certificate failure is reported as such.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";

/** A running self-signed TLS server: its port and a close that removes the key material. */
export interface SelfSignedTlsServer {
  port: number;
  close: () => Promise<void>;
}

/** Starts a TLS server on 127.0.0.1:0 whose certificate no client trusts. */
export async function startSelfSignedTls(): Promise<SelfSignedTlsServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "pincer-tls-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert].concat([
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
      ]),
      { stdio: "ignore" },
    );
    const server = tls.createServer(
      { key: readFileSync(key), cert: readFileSync(cert) },
      (socket) => socket.end(),
    );
    // Clients reject the handshake; that is the point, not a server error.
    server.on("tlsClientError", () => {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      port,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
