// `npm run build`'s second step: runs the bundles of rolldown.config.mjs through rolldown's API,
// which prints only warnings and errors (the rolldown CLI always prints a table of every chunk,
// and `npm install` runs the build through `prepare`). Exits non-zero when a bundle fails.
import { build } from "rolldown";
import configs from "../rolldown.config.mjs";

for (const options of configs) {
  await build({ logLevel: "warn", ...options });
}
