// The wizard's questions on a real terminal, through @clack/prompts bound to the command's own
// streams (never process.stdin/stdout directly, so tests drive it with a fake terminal). A cancelled
// question (Ctrl-C, Esc) comes back as CANCELLED; the wizard then stops and writes nothing.
import type { Readable, Writable } from "node:stream";
import * as clack from "@clack/prompts";

/** What a cancelled question returns. */
export const CANCELLED: unique symbol = Symbol("wizard-cancelled");
/** An answer, or CANCELLED. */
export type Asked<T> = T | typeof CANCELLED;

/** One choice of a select or autocomplete question. */
export interface Choice<T extends string> {
  value: T;
  label?: string;
  hint?: string;
}

/** A text question; `validate` returns the problem to show, or undefined to accept. */
export interface TextQuestion {
  message: string;
  initialValue?: string;
  placeholder?: string;
  validate?: (value: string) => string | undefined;
}

/** The questions and messages the wizard steps use. */
export interface Prompter {
  intro(title: string): void;
  note(message: string, title?: string): void;
  info(message: string): void;
  warn(message: string): void;
  outro(message: string): void;
  cancel(message: string): void;
  text(question: TextQuestion): Promise<Asked<string>>;
  /** Masked input: the typed secret is never echoed. */
  password(question: Omit<TextQuestion, "initialValue" | "placeholder">): Promise<Asked<string>>;
  select<T extends string>(q: {
    message: string;
    options: Choice<T>[];
    initialValue?: T;
  }): Promise<Asked<T>>;
  /** A select with type-to-filter, for long lists (providers, models). */
  search<T extends string>(q: {
    message: string;
    options: Choice<T>[];
    initialValue?: T;
  }): Promise<Asked<T>>;
  confirm(q: { message: string; initialValue?: boolean }): Promise<Asked<boolean>>;
  /** Shows a spinner while `work` runs, then `done(result)` as its final line. */
  during<R>(message: string, work: () => Promise<R>, done: (result: R) => string): Promise<R>;
}

/** The streams of a terminal: stdin (raw mode capable) and stdout. */
export interface WizardTerminal {
  input: Readable;
  output: Writable;
}

const asked = <T>(value: unknown): Asked<T> => (clack.isCancel(value) ? CANCELLED : (value as T));

const validator =
  (check?: (value: string) => string | undefined) =>
  (value: string | undefined): string | undefined =>
    check ? check(value ?? "") : undefined;

/** A Prompter writing to `terminal.output` and reading keys from `terminal.input`. */
export function createPrompter(terminal: WizardTerminal): Prompter {
  const io = { input: terminal.input, output: terminal.output };
  return {
    intro: (title) => clack.intro(title, io),
    note: (message, title) => clack.note(message, title, io),
    info: (message) => clack.log.info(message, io),
    warn: (message) => clack.log.warn(message, io),
    outro: (message) => clack.outro(message, io),
    cancel: (message) => clack.cancel(message, io),
    text: async (q) =>
      asked<string>(
        await clack.text({
          message: q.message,
          ...(q.initialValue !== undefined ? { initialValue: q.initialValue } : {}),
          ...(q.placeholder !== undefined ? { placeholder: q.placeholder } : {}),
          validate: validator(q.validate),
          ...io,
        }),
      ),
    password: async (q) =>
      asked<string>(
        await clack.password({ message: q.message, validate: validator(q.validate), ...io }),
      ),
    select: async <T extends string>(q: {
      message: string;
      options: Choice<T>[];
      initialValue?: T;
    }) =>
      asked<T>(
        await clack.select({
          message: q.message,
          options: q.options as clack.Option<typeof q.initialValue>[],
          ...(q.initialValue !== undefined ? { initialValue: q.initialValue } : {}),
          ...io,
        }),
      ),
    search: async <T extends string>(q: {
      message: string;
      options: Choice<T>[];
      initialValue?: T;
    }) =>
      asked<T>(
        await clack.autocomplete({
          message: q.message,
          options: q.options as clack.Option<typeof q.initialValue>[],
          ...(q.initialValue !== undefined ? { initialValue: q.initialValue } : {}),
          maxItems: 10,
          // With a filter that matches nothing, Enter would submit no value: say so instead.
          validate: (value: unknown) =>
            value === undefined ? "nothing matches what you typed (Backspace to widen)" : undefined,
          ...io,
        }),
      ),
    confirm: async (q) =>
      asked<boolean>(
        await clack.confirm({
          message: q.message,
          ...(q.initialValue !== undefined ? { initialValue: q.initialValue } : {}),
          ...io,
        }),
      ),
    during: async (message, work, done) => {
      const spin = clack.spinner({ output: terminal.output });
      spin.start(message);
      const result = await work();
      spin.stop(done(result));
      return result;
    },
  };
}
