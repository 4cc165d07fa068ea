#!/usr/bin/env node
// The `pincer` executable: wires the real process to runCli.
import { runCli } from "./program.js";

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
