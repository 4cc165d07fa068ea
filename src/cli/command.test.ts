// A command declaration is the whole truth: the registered flags come from its option keys, and the
// options `run` receives are typed from the same declaration (the @ts-expect-error lines fail tsc if not).
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { capturingContext } from "../../test/helpers/fake-process-io.js";
import { defineCommand, flag, type InputOf, list, type OptionsOf, value } from "./command.js";
import { registerCommands } from "./register.js";

const options = {
  dryRun: flag("only report", { short: "-n" }),
  open: flag("open a browser", { negatable: true }),
  secret: flag("hidden flag", { hidden: true }),
  timeout: value("<ms>", "timeout"),
  provider: value("<id>", "provider", { required: true }),
  type: value("<type>", "credential type", { choices: ["api_key", "token"], default: "api_key" }),
  bind: list("<channel>", "repeatable"),
};

type Parsed = OptionsOf<typeof options>;
const typed: Parsed = {
  dryRun: undefined,
  open: false,
  secret: true,
  timeout: undefined,
  provider: "openai",
  type: "token",
  bind: [],
};
// @ts-expect-error a required value option is a string, never undefined
const missingRequired: Parsed = { ...typed, provider: undefined };
// @ts-expect-error a list option is an array
const listAsString: Parsed = { ...typed, bind: "x" };
const readUndeclared = (input: InputOf<typeof options>) =>
  // @ts-expect-error an option that is not declared cannot be read
  input.opts.verbose;

const { ctx } = capturingContext({ env: {} });

function program(received: Array<InputOf<typeof options>>) {
  const root = new Command("pincer").exitOverride().configureOutput({ writeErr: () => {} });
  let exit = -1;
  registerCommands({
    root,
    groups: [{ path: ["things"], description: "things" }],
    commands: [
      defineCommand({
        path: ["things", "do"],
        description: "do a thing",
        arguments: [
          { name: "first", description: "first", required: true },
          { name: "rest", description: "rest", variadic: true },
        ],
        options,
        run: async (_ctx, input) => {
          received.push(input);
          return 3;
        },
      }),
    ],
    contextOf: () => ctx,
    setExitCode: (code) => {
      exit = code;
    },
  });
  return { root, exit: () => exit };
}

describe("declared commands", () => {
  it("derive their flags from the option keys and pass typed options to run", async () => {
    const received: Array<InputOf<typeof options>> = [];
    const { root, exit } = program(received);
    await root.parseAsync(
      [
        "things",
        "do",
        "a",
        "b",
        "c",
        "-n",
        "--no-open",
        "--provider",
        "x",
        "--bind",
        "t",
        "--bind",
        "d",
      ],
      { from: "user" },
    );
    expect(exit()).toBe(3);
    expect(received[0]!.args).toEqual(["a", "b", "c"]);
    expect(received[0]!.opts).toMatchObject({
      dryRun: true,
      open: false,
      provider: "x",
      type: "api_key",
      bind: ["t", "d"],
    });
    expect(received[0]!.opts.timeout).toBeUndefined();
    expect([missingRequired, listAsString, readUndeclared].length).toBe(3);
  });

  it("enforce required options and choices, and hide hidden flags from help", async () => {
    const { root } = program([]);
    await expect(root.parseAsync(["things", "do", "a"], { from: "user" })).rejects.toThrow(
      /required option '--provider <id>' not specified/,
    );
    await expect(
      root.parseAsync(["things", "do", "a", "--provider", "x", "--type", "nope"], { from: "user" }),
    ).rejects.toThrow(/Allowed choices are api_key, token/);
    const help = root.commands[0]!.commands[0]!.helpInformation();
    expect(help).toContain("-n, --dry-run");
    expect(help).toContain("--timeout <ms>");
    expect(help).not.toContain("--secret");
    expect(help).toContain("<first> [rest...]");
  });

  it("show a described negation in help, next to its flag, and parse both ways", async () => {
    const negationOptions = {
      daemon: flag("install the service", { negation: "do not install it (default)" }),
    };
    const seen: Array<InputOf<typeof negationOptions>["opts"]> = [];
    const root = new Command("pincer").exitOverride();
    registerCommands({
      root,
      groups: [],
      commands: [
        defineCommand({
          path: ["setup"],
          description: "a root command",
          options: negationOptions,
          run: async (_ctx, input) => {
            seen.push(input.opts);
            return 0;
          },
        }),
      ],
      contextOf: () => ctx,
      setExitCode: () => {},
    });
    const help = root.commands[0]!.helpInformation();
    expect(help).toMatch(/--daemon\s+install the service\n\s+--no-daemon\s+do not install it/);
    for (const argv of [["setup"], ["setup", "--daemon"], ["setup", "--no-daemon"]])
      await root.parseAsync(argv, { from: "user" });
    expect(seen.map((o) => o.daemon)).toEqual([undefined, true, false]);
  });

  it("add a group where its first command is, so help keeps the declaration order", () => {
    const root = new Command("pincer");
    const command = (path: string[]) =>
      defineCommand({ path, description: path.join(" "), options: {}, run: async () => 0 });
    registerCommands({
      root,
      groups: [
        { path: ["family"], description: "a family" },
        { path: ["family", "nested"], description: "a nested group" },
        { path: ["empty"], description: "a group with no commands yet" },
      ],
      commands: [
        command(["family", "first"]),
        command(["family", "nested", "inner"]),
        command(["family", "last"]),
        command(["solo"]),
      ],
      contextOf: () => ctx,
      setExitCode: () => {},
    });
    expect(root.commands.map((c) => c.name())).toEqual(["family", "solo", "empty"]);
    expect(root.commands[0]!.commands.map((c) => c.name())).toEqual(["first", "nested", "last"]);
  });

  it("refuse a command whose group is not declared", () => {
    const root = new Command("pincer");
    expect(() =>
      registerCommands({
        root,
        groups: [],
        commands: [
          defineCommand({
            path: ["nowhere", "cmd"],
            description: "x",
            options: {},
            run: async () => 0,
          }),
        ],
        contextOf: () => ctx,
        setExitCode: () => {},
      }),
    ).toThrow(/command group "nowhere cmd" is not declared/);
  });
});
