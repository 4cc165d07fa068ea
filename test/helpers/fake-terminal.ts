// A fake terminal for driving interactive prompts in-process: stdin is a PassThrough that claims to
// be a TTY (raw mode is a no-op), stdout records everything written. `waitFor` waits until a text
// appears after the last one waited for, then `type` sends keystrokes, like a person would.
import { PassThrough, Writable } from "node:stream";
import { type CliIo, ExitCode } from "../../src/cli/command-context.js";
import { runCli } from "../../src/cli/program.js";
import type { CliRun } from "./cli-sandbox.js";
import { fakeProcessIo } from "./fake-process-io.js";

/** Keystrokes as a terminal sends them. */
export const KEY = {
  enter: "\r",
  up: "\u001b[A",
  down: "\u001b[B",
  ctrlC: "\u0003",
  backspace: "\u007f",
} as const;

/** The fake terminal: give `terminal` to the CLI, then alternate `waitFor` and `type`. */
export interface FakeTerminal {
  terminal: { input: PassThrough; output: Writable };
  /** Everything written so far, ANSI codes removed. */
  screen(): string;
  /** Resolves once `text` appears after the previous match; rejects with the screen after `ms`. */
  waitFor(text: string, ms?: number): Promise<void>;
  type(keys: string): void;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/** Creates a fake terminal 200 columns wide (no wrapping of prompt messages). */
export function createFakeTerminal(): FakeTerminal {
  const input = new PassThrough();
  Object.assign(input, { isTTY: true, setRawMode: () => input });
  let written = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  Object.assign(output, { isTTY: true, columns: 200, rows: 50 });
  let cursor = 0;
  const screen = () => written.replace(ANSI, "");
  return {
    terminal: { input, output },
    screen,
    async waitFor(text, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const at = screen().indexOf(text, cursor);
        if (at >= 0) {
          cursor = at + text.length;
          return;
        }
        if (Date.now() > deadline) {
          throw new Error(`"${text}" did not appear; screen:\n${screen().slice(-3000)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    type(keys) {
      input.write(keys);
    },
  };
}

/** Starts `pincer <argv>` on the fake terminal in `env`; the promise settles when the command ends. */
export function runOnTerminal(
  argv: string[],
  params: { env: Record<string, string>; term: FakeTerminal },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: params.env,
    readStdin: async () => "",
    ...fakeProcessIo(),
    isTty: false,
    terminal: params.term.terminal,
  };
  return runCli(argv, io).then((code) => ({ code: code ?? ExitCode.ok, stdout, stderr }));
}
