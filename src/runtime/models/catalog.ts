// pi-ai's built-in model catalog (getModels / getProviders) without pi-ai's providers: the package
// index pulls in every provider SDK (~0.5 s and ~25 MB here), while the gateway needs only the
// catalog at start-up to check model refs. pi-ai exports no subpath for it, so its own models.js is
// imported by file URL: the same URL pi-ai's index imports, hence one module instance, one registry.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

type Catalog = Pick<typeof import("@mariozechner/pi-ai"), "getModels" | "getProviders">;

function catalogFile(): string | undefined {
  const dirs = createRequire(import.meta.url).resolve.paths("@mariozechner/pi-ai") ?? [];
  return dirs
    .map((dir) => join(dir, "@mariozechner", "pi-ai", "dist", "models.js"))
    .find((file) => existsSync(file));
}

const file = catalogFile();
/** The catalog functions (pi-ai's index as the fallback when its layout ever changes). */
export const catalog: Catalog = file
  ? ((await import(pathToFileURL(file).href)) as Catalog)
  : await import("@mariozechner/pi-ai");
