// Constant-time comparison of two secrets (tokens, passwords): both are hashed first, so neither
// their content nor their length leaks through timing.
import { createHash, timingSafeEqual } from "node:crypto";

/** True when `given` equals `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
