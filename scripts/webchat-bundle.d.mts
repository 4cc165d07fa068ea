// Types of webchat-bundle.mjs for the TypeScript tests that build the WebChat.
import type { BuildOptions } from "rolldown";

/** Rolldown build options writing the WebChat into `outDir`. */
export declare function webchatBundleOptions(params: { outDir: string }): BuildOptions;
