// `pincer gateway --json` keeps its promise of JSON lines only also when the command line itself is
// wrong: commander's own usage errors (an unknown option, a missing option value) become one `fatal`
// record with exit code 2 instead of commander's plain `error: …` text and help hint.
import type { OutputConfiguration } from "commander";
import { consoleRecordLine } from "../../gateway/logging/json-console.js";
import { ExitCode } from "../command-context.js";

/** Whether the gateway command line asks for JSON output (`--json` before any `--`). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/** Commander output for `gateway [run]` under `--json`: each usage error one JSON `fatal` line. */
export function jsonUsageOutput(params: {
  writeOut: (text: string) => void;
  writeErr: (text: string) => void;
  pid: number;
  now: () => number;
}): OutputConfiguration {
  const record = (text: string) =>
    consoleRecordLine({
      level: "fatal",
      msg: text.trim().replace(/^error: /, ""),
      fields: { exitCode: ExitCode.usage },
      now: params.now,
      pid: params.pid,
    });
  return {
    writeOut: params.writeOut,
    // Anything else commander writes to stderr (the help hint) is kept out: JSON lines only.
    writeErr: () => {},
    outputError: (text) => params.writeErr(`${record(text)}\n`),
  };
}
