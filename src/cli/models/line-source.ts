// Lines typed (or piped) into a `models auth` command: a readline on a terminal, else the lines of
// standard input read once. Login flows ask questions and wait for a pasted redirect URL with it.
import { createInterface, type Interface } from "node:readline";
import type { CliContext } from "../command-context.js";

/** A source of answer lines; `next` resolves undefined once input has ended. */
export interface LineSource {
  next: (question: string) => Promise<string | undefined>;
  close: () => void;
}

function terminalLines(terminal: NonNullable<CliContext["terminal"]>): LineSource {
  let rl: Interface | undefined = createInterface({
    input: terminal.input,
    output: terminal.output,
  });
  let ended = false;
  rl.once("close", () => {
    ended = true;
  });
  return {
    next: (question) =>
      new Promise((resolve) => {
        if (ended || !rl) return resolve(undefined);
        rl.once("close", () => resolve(undefined));
        rl.question(question, (answer) => resolve(answer));
      }),
    close: () => {
      rl?.close();
      rl = undefined;
    },
  };
}

function pipedLines(ctx: CliContext): LineSource {
  let lines: Promise<string[]> | undefined;
  return {
    // No prompt text: piped input is not typed in answer to it (the command's own lines say what
    // to paste).
    next: async () => {
      lines ??= ctx.readStdin().then((text) => text.split(/\r?\n/));
      return (await lines).shift();
    },
    close: () => {},
  };
}

/** Lines from the terminal when there is one, else from piped standard input. */
export function createLineSource(ctx: CliContext): LineSource {
  return ctx.terminal ? terminalLines(ctx.terminal) : pipedLines(ctx);
}

/** The first non-empty line; stays pending when input ends without one (nothing was pasted). */
export async function nextNonEmptyLine(source: LineSource, question: string): Promise<string> {
  for (;;) {
    const line = await source.next(question);
    if (line === undefined) return new Promise<string>(() => {});
    if (line.trim()) return line.trim();
  }
}
