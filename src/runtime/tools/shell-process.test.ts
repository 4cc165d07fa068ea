// ShellProcess with a sandbox client: the given argv is spawned (not the host shell), and stop()
// also stops the command inside the sandbox, SIGTERM first.
import { describe, expect, it } from "vitest";
import { ShellProcess } from "./shell-process.js";

describe("ShellProcess with argv and stopInside", () => {
  it("spawns the argv as given", async () => {
    const proc = ShellProcess.start({
      command: "ignored by argv",
      argv: ["/bin/echo", "from", "argv"],
      cwd: "/",
      env: {},
      outputCap: 1000,
      killGraceMs: 50,
    });
    const exit = await proc.done;
    expect(exit.exitCode).toBe(0);
    expect(proc.output.text()).toBe("from argv\n");
  });

  it("stop() signals the process group and stops the command inside the sandbox", async () => {
    const inside: NodeJS.Signals[] = [];
    const proc = ShellProcess.start({
      command: "sleep 30",
      argv: ["/bin/sh", "-c", "echo started; sleep 30"],
      cwd: "/",
      env: {},
      outputCap: 1000,
      killGraceMs: 50,
      onOutput: () => proc.stop(),
      stopInside: async (signal) => {
        inside.push(signal);
      },
    });
    const exit = await proc.done;
    expect(exit.stopped).toBe(true);
    expect(inside[0]).toBe("SIGTERM");
  });
});
