#!/usr/bin/env node
// The `pincer` executable: wires the real process to runCli.
import module from "node:module";
import { runCli } from "./program.js";

// Node >= 22.1 can cache compiled code between runs; older Nodes simply lack the function.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

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
});
process.exitCode = code;
