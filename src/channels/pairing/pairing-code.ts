// Pairing codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), as OpenClaw.
import { randomInt } from "node:crypto";

/** Characters a pairing code is made of. */
export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** Length of a pairing code. */
export const PAIRING_CODE_LENGTH = 8;

/** A fresh random code; `random(n)` (default crypto) returns an integer in [0, n). */
export function generatePairingCode(random: (n: number) => number = randomInt): string {
  let code = "";
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) {
    code += PAIRING_CODE_ALPHABET[random(PAIRING_CODE_ALPHABET.length)];
  }
  return code;
}

/** Normalizes a code typed by an operator (case, spaces, dashes). */
export function normalizePairingCode(input: string): string {
  return input.replace(/[\s-]/g, "").toUpperCase();
}
