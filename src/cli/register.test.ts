// A declaration's `configure` hook gets its commander command and the call (argv, io) once
// registered; a registration without the call refuses such a declaration instead of skipping it.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { capturingContext } from "../../test/helpers/fake-process-io.js";
import { defineCommand } from "./command.js";
import type { CliIo } from "./command-context.js";
import { registerCommands } from "./register.js";

const { ctx } = capturingContext({ env: {} });
const io: CliIo = ctx;
const base = { contextOf: () => ctx, setExitCode: () => {} };
const noop = async () => 0;

describe("registerCommands", () => {
  it("gives a configure hook the command and the call, and refuses one without the call", () => {
    const seen: Array<{ name: string; argv: readonly string[]; io: CliIo }> = [];
    const spec = defineCommand({
      path: ["run"],
      description: "x",
      options: {},
      configure: (cmd, call) => {
        seen.push({ name: cmd.name(), argv: call.argv, io: call.io });
      },
      run: noop,
    });
    registerCommands({
      ...base,
      root: new Command("pincer"),
      groups: [],
      commands: [spec],
      call: { argv: ["run", "--json"], io },
    });
    expect(seen).toEqual([{ name: "run", argv: ["run", "--json"], io }]);
    expect(() =>
      registerCommands({ ...base, root: new Command("pincer"), groups: [], commands: [spec] }),
    ).toThrow(/"run" needs the call/);
  });
});
