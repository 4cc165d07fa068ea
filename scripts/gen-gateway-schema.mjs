// Writes src/protocol/gateway/schema.generated.ts, the plain-JSON form of the TypeBox protocol
// schemas (frames, connect, method params and results), so the gateway validates without loading
// TypeBox. Run through `npm run gen` (it builds first); test/gateway-schema.test.ts fails when stale.
import { writeFileSync } from "node:fs";
import { renderGeneratedSchemas } from "../dist/protocol/gateway/build-schemas.js";

const text = renderGeneratedSchemas();
writeFileSync(new URL("../src/protocol/gateway/schema.generated.ts", import.meta.url), text);
console.log(`protocol/gateway/schema.generated.ts: ${text.length} characters`);
