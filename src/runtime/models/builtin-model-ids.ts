// The ids of pi-ai's built-in model catalogue: every provider with its model ids and their APIs, in
// pi-ai's order, from the table `npm run gen` writes (builtin-model-ids.generated.ts). Model refs
// are checked against it, so a gateway refuses an unknown model at start without loading the
// catalogue (a 550 KB module); pi-ai's own `Model` objects are read only when a run needs one.
import { BUILTIN_MODEL_IDS_JSON } from "./builtin-model-ids.generated.js";

/** One built-in model as model-ref checks see it: its id and the API it streams through. */
export interface BuiltinModelId {
  id: string;
  api: string;
}

/** The built-in catalogue's ids: providers in pi-ai's order, each one's models in pi-ai's order. */
export interface ModelIdCatalog {
  readonly providers: readonly string[];
  /** The models of a built-in provider (none for any other id). */
  models(provider: string): readonly BuiltinModelId[];
}

/** The JSON form of the table: the APIs once, then each provider's [model id, API index] pairs. */
export interface ModelIdTable {
  apis: string[];
  providers: Array<[provider: string, models: Array<[id: string, api: number]>]>;
}

/** A catalogue over a decoded table. */
export function modelIdCatalogOf(table: ModelIdTable): ModelIdCatalog {
  const byProvider = new Map<string, BuiltinModelId[]>();
  for (const [provider, models] of table.providers) {
    byProvider.set(
      provider,
      models.map(([id, api]) => ({ id, api: table.apis[api] ?? "" })),
    );
  }
  const providers = [...byProvider.keys()];
  return { providers, models: (provider) => byProvider.get(provider) ?? [] };
}

/** The ids of the pi-ai version this build was generated against. */
export const BUILTIN_MODEL_IDS: ModelIdCatalog = modelIdCatalogOf(
  JSON.parse(BUILTIN_MODEL_IDS_JSON) as ModelIdTable,
);
