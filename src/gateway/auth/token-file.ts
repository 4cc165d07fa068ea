// Auth on by default: when nothing configures gateway auth, the gateway uses a random token kept in
// `<stateDir>/gateway.token` (mode 0600). Local clients (the CLI) read the same file, so they connect
// without setup, and nothing else on the host can connect without it.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";

/** Where the generated gateway token lives. */
export function gatewayTokenPath(stateDir: string): string {
  return join(stateDir, "gateway.token");
}

/** The stored token, or undefined when the file does not exist yet. */
export function readGatewayTokenFile(stateDir: string): string | undefined {
  try {
    const token = readFileSync(gatewayTokenPath(stateDir), "utf8").trim();
    return token === "" ? undefined : token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Returns the stored token, creating a new random one (32 bytes, base64url) on first use. */
export function ensureGatewayTokenFile(stateDir: string): { token: string; created: boolean } {
  const existing = readGatewayTokenFile(stateDir);
  if (existing) return { token: existing, created: false };
  const token = randomBytes(32).toString("base64url");
  writeFileAtomic(gatewayTokenPath(stateDir), `${token}\n`, { mode: 0o600 });
  return { token, created: true };
}
