// The one token heuristic Pincer uses where no tokenizer is at hand (context budgeting, `pincer
// context`): chars/4, pi-coding-agent's rule. Deliberately conservative, never exact.

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of `chars` characters (rounded up). */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
