// The one way Pincer parses JSON5 text (config files, `config set` values, config patches, skill
// frontmatter): the json5 package, loaded on first use. Its Unicode tables cost ~30 ms of start-up,
// and the common config load never needs it (`config/json5-fast.ts` reads ordinary files itself).
import { createRequire } from "node:module";

interface Json5Module {
  parse(text: string): unknown;
}

/** Parses JSON5 text; throws the json5 package's SyntaxError (with lineNumber/columnNumber). */
export function parseJson5(text: string): unknown {
  return (createRequire(import.meta.url)("json5") as Json5Module).parse(text);
}
