// The loader hooks of module-trace.mjs (they run on the loader's own thread): each module's line is
// written before the module is handed back to be evaluated, so it precedes any later "ready" line.
import { appendFileSync } from "node:fs";

/** Records `{url, format}` of every module the ESM loader loads. */
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  appendFileSync(
    process.env.MODULE_TRACE_FILE,
    `${JSON.stringify({ url, format: result.format })}\n`,
  );
  return result;
}
