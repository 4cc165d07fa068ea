// Phone numbers as digits, from any common spelling: `+1 (555) 123-4567`, `0015551234567`,
// `15551234567`. Channels whose ids are numbers (WhatsApp, Signal) and the allowlists that name them
// compare these digits, so the spelling in a config never decides a match.

/** The digits of a phone number (country code first, 6–15 of them), or undefined. */
export function phoneDigits(text: string): string | undefined {
  const compact = text.replace(/[\s().-]/g, "").replace(/^(\+|00)/, "");
  return /^\d{6,15}$/.test(compact) ? compact : undefined;
}
