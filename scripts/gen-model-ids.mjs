// Writes src/runtime/models/builtin-model-ids.generated.ts, the ids of pi-ai's built-in model
// catalogue (providers, model ids, APIs), so model refs are checked without loading the catalogue.
// Run through `npm run gen` (it builds first); src/runtime/models/builtin-model-ids.test.ts fails
// when it is stale.
import { writeFileSync } from "node:fs";
import { getModels, getProviders } from "@mariozechner/pi-ai";
import { renderBuiltinModelIds } from "../dist/runtime/models/builtin-model-ids-render.js";

const text = renderBuiltinModelIds({ getProviders, getModels });
writeFileSync(
  new URL("../src/runtime/models/builtin-model-ids.generated.ts", import.meta.url),
  text,
);
console.log(`runtime/models/builtin-model-ids.generated.ts: ${text.length} characters`);
