#!/usr/bin/env node
// The `pincer` executable: wires the real process to runCli.
import module from "node:module";

// Node >= 22.1 can cache compiled code between runs; older Nodes simply lack the function.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// Stack traces name src/... lines (the bundle ships its source maps). Node only maps modules
// loaded after this call, hence the dynamic import of everything else below.
process.setSourceMapsEnabled(true);
const { runCli } = await import("./program.js");

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  readStdin,
  isTty: process.stdout.isTTY === true,
  ...(process.stdin.isTTY && process.stdout.isTTY
    ? { terminal: { input: process.stdin, output: process.stdout } }
    : {}),
});
process.exitCode = code;
