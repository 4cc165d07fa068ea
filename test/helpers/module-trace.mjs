// Loaded with `--import` (NODE_OPTIONS) into a spawned `pincer gateway`: appends one JSON line per
// module the ESM loader loads ({url, format}) to $MODULE_TRACE_FILE, and the line "ready" when the
// gateway prints its ready line, so a test can tell what was loaded before the gateway listened.
import { appendFileSync } from "node:fs";
import { register } from "node:module";

register("./module-trace-hooks.mjs", import.meta.url);

const file = process.env.MODULE_TRACE_FILE;
const write = process.stdout.write.bind(process.stdout);
let ready = false;
process.stdout.write = (chunk, ...rest) => {
  if (!ready && String(chunk).includes("listening on ws://")) {
    ready = true;
    appendFileSync(file, `${JSON.stringify("ready")}\n`);
  }
  return write(chunk, ...rest);
};
