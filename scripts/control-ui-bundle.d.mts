// Types of control-ui-bundle.mjs for the TypeScript tests that build the Control UI.
import type { BuildOptions } from "rolldown";

/** Rolldown build options writing the Control UI into `outDir`. */
export declare function controlUiBundleOptions(params: { outDir: string }): BuildOptions;

/** app.css followed by every src/ui/control/pages/*.css. */
export declare function controlUiStylesheet(): string;
