// How Pincer names an iMessage sender, for both iMessage routes (BlueBubbles and the imsg bridge),
// so the same person is the same peer (and allowFrom entry) whichever route a message came by.
import { phoneDigits } from "../lib/phone-number.js";

/** A handle as Pincer names it: `+<digits>` for a phone number, else lowercased (an email). */
export function iMessageHandle(address: string): string {
  if (address.includes("@")) return address.toLowerCase();
  const digits = phoneDigits(address);
  return digits === undefined ? address : `+${digits}`;
}
