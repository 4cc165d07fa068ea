// The registrar keeps the help tree as declared: a nested group lists where its first command is
// declared, a `negatable` string shows `--no-<flag>` in help, and a `configure` hook sees the call.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { fakeProcessIo } from "../../test/helpers/fake-process-io.js";
import { defineCommand, flag } from "./command.js";
import type { CliContext, CliIo } from "./context.js";
import { registerCommands } from "./register.js";

const io: CliIo = {
  stdout: () => {},
  stderr: () => {},
  env: {},
  readStdin: async () => "",
  ...fakeProcessIo(),
  isTty: false,
};
const ctx: CliContext = { ...io, color: false };
const base = { contextOf: () => ctx, setExitCode: () => {} };
const noop = async () => 0;

function subcommandNames(cmd: Command | undefined): string[] {
  return (cmd?.commands ?? []).map((c) => c.name());
}

describe("registerCommands", () => {
  it("adds a nested group just before its first command, keeping declaration order", () => {
    const root = new Command("pincer");
    registerCommands({
      ...base,
      root,
      groups: [
        { path: ["models"], description: "models" },
        { path: ["models", "auth"], description: "auth profiles" },
      ],
      commands: [
        defineCommand({ path: ["models", "status"], description: "s", options: {}, run: noop }),
        defineCommand({ path: ["models", "list"], description: "l", options: {}, run: noop }),
        defineCommand({
          path: ["models", "auth", "add"],
          description: "a",
          options: {},
          run: noop,
        }),
      ],
    });
    const models = root.commands.find((c) => c.name() === "models");
    expect(subcommandNames(models)).toEqual(["status", "list", "auth"]);
    expect(subcommandNames(models?.commands.find((c) => c.name() === "auth"))).toEqual(["add"]);
  });

  it("shows --no-<flag> in help when negatable is a description, hides it when true", () => {
    const root = new Command("pincer");
    registerCommands({
      ...base,
      root,
      groups: [],
      commands: [
        defineCommand({
          path: ["shown"],
          description: "x",
          options: { open: flag("open it", { negatable: "only print" }) },
          run: noop,
        }),
        defineCommand({
          path: ["hidden"],
          description: "x",
          options: { open: flag("open it", { negatable: true }) },
          run: noop,
        }),
      ],
    });
    const [shown, hidden] = root.commands;
    expect(shown!.helpInformation()).toMatch(/--no-open\s+only print/);
    expect(hidden!.helpInformation()).not.toContain("--no-open");
  });

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
