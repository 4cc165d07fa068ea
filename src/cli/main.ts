#!/usr/bin/env node
// The `pincer` executable: wires the real process to runCli.
import module from "node:module";

// Node >= 22.1 can cache compiled code between runs; older Nodes simply lack the function. It only
// covers modules loaded after this call, hence the dynamic import of everything else below.
// Source maps ship with the bundle but stay off by default: reading them cost every start ~15 ms
// (a tenth of the gateway's time to ready). `NODE_OPTIONS=--enable-source-maps` turns them on.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import("./program.js");
const { processIo } = await import("./process-io.js");

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// A reader that went away (`pincer status | head`) is not a crash: once a stream reports EPIPE its
// further output has nowhere to go and is dropped; the command (or the gateway) carries on.
const closed = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    closed.add(stream);
  });
}
const write = (stream: NodeJS.WriteStream) => (text: string) => {
  if (!closed.has(stream)) stream.write(text);
};

const code = await runCli(process.argv.slice(2), {
  stdout: write(process.stdout),
  stderr: write(process.stderr),
  env: process.env,
  readStdin,
  isTty: process.stdout.isTTY === true,
  ...processIo(process),
  ...(process.stdin.isTTY && process.stdout.isTTY
    ? { terminal: { input: process.stdin, output: process.stdout } }
    : {}),
});
process.exitCode = code;
