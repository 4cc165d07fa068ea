// Placeholders for text already rendered (code spans, links) while later rewrite rules run over the
// rest: `put` swaps a piece for a NUL-delimited marker, `restore` puts every piece back. Shared by
// the Markdown converters of the channels (WhatsApp markup, Slack mrkdwn).

const MARK = "\u0000";

/** Keeps rendered pieces out of the way of later rules; `restore` puts them back. */
export class TextStash {
  private readonly pieces: string[] = [];

  /** Stores `text`; returns the marker standing in for it. */
  put(text: string): string {
    this.pieces.push(text);
    return `${MARK}${this.pieces.length - 1}${MARK}`;
  }

  /** Replaces every marker in `text` by its piece (markers inside pieces too, 4 levels deep). */
  restore(text: string): string {
    const pattern = new RegExp(`${MARK}(\\d+)${MARK}`, "g");
    let out = text;
    for (let depth = 0; depth < 4 && out.includes(MARK); depth++) {
      out = out.replace(pattern, (_m, index: string) => this.pieces[Number(index)] ?? "");
    }
    return out;
  }
}
