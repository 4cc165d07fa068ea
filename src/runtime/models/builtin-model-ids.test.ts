// The generated id table is pi-ai's catalogue (a pure check: `npm run gen` rewrites it), and checks
// on it give what resolving against pi-ai's own catalogue gives.
import { readFileSync } from "node:fs";
import { getModels, getProviders } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { BUILTIN_MODEL_IDS, modelIdCatalogOf } from "./builtin-model-ids.js";
import { modelIdTableOf, renderBuiltinModelIds } from "./builtin-model-ids-render.js";
import { lookupModel } from "./model-lookup.js";
import { resolveModel } from "./registry.js";

const file = new URL("./builtin-model-ids.generated.ts", import.meta.url);
const piAi = { getProviders, getModels };

describe("the built-in model id table", () => {
  it("builtin-model-ids.generated.ts is up to date with the installed pi-ai", () => {
    const stale = readFileSync(file, "utf8") !== renderBuiltinModelIds(piAi);
    expect(
      stale,
      "src/runtime/models/builtin-model-ids.generated.ts is stale: run `npm run gen`",
    ).toBe(false);
  });

  it("lists every provider and model of pi-ai's catalogue, in its order, with its API", () => {
    expect(BUILTIN_MODEL_IDS.providers).toEqual(getProviders());
    for (const provider of getProviders()) {
      const models = getModels(provider).map((model) => ({ id: model.id, api: model.api }));
      expect(BUILTIN_MODEL_IDS.models(provider)).toEqual(models);
    }
    expect(BUILTIN_MODEL_IDS.models("no-such-provider")).toEqual([]);
  });

  it("every built-in model resolves to pi-ai's own Model object", () => {
    for (const provider of getProviders()) {
      for (const model of getModels(provider)) {
        const ref = { provider, model: model.id };
        expect(resolveModel({ cfg: {}, ref })).toEqual({ ok: true, model, source: "builtin" });
      }
    }
  });

  it("refusals read the same on the table as on a table made from pi-ai at run time", () => {
    const live = modelIdCatalogOf(modelIdTableOf(piAi));
    const cfg = {
      models: {
        providers: {
          fake: { baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "m1", name: "m1" }] },
          bare: {},
        },
      },
    };
    const refs = [
      { provider: "anthropic", model: "claude-sonet-4-5" },
      { provider: "antropic", model: "claude-sonnet-4-5" },
      { provider: "anthropic", model: "m1" },
      { provider: "openai", model: "totally-unknown" },
      { provider: "fake", model: "m2" },
      { provider: "bare", model: "x" },
    ];
    for (const ref of refs) {
      const onTable = lookupModel({ cfg, ref });
      expect(onTable).toEqual(lookupModel({ cfg, ref, catalog: live }));
      if (!onTable.ok) expect(resolveModel({ cfg, ref })).toEqual(onTable);
    }
  });
});
