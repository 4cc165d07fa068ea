// pi-ai's built-in model catalog (getModels / getProviders). pi-ai is bundled into dist/bin with
// Pincer (rolldown.config.mjs) and its providers are lazy chunks there, so importing its index costs
// no provider SDK; importing it by name keeps one module instance, hence one catalogue in memory.
import { getModels, getProviders } from "@mariozechner/pi-ai";

/** The catalog functions, as one object so callers name where the data comes from. */
export const catalog = { getModels, getProviders };
