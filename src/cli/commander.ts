// commander's classes, required rather than imported (it is CommonJS: see lib/require-commonjs.ts),
// so no command's start-up pays for the ESM loader's export lexer. Types come from the package.
import type * as Commander from "commander";
import { requireCommonJs } from "../lib/require-commonjs.js";

const commander = requireCommonJs<typeof Commander>("commander");

/** commander's classes (values), as `import { Command, … } from "commander"` would give them. */
export const { Command, CommanderError, Help, Option } = commander;
/** A command of the tree. */
export type Command = Commander.Command;
/** An option of a command. */
export type Option = Commander.Option;
