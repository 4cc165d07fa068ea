// The schema loadConfig/validateConfig use when the caller passes none: the protocol's config
// schema in its compact generated form, so loading a config never loads TypeBox.
import type { OpenClawConfig } from "../protocol/config/index.js";
import { CONFIG_JSON_SCHEMA } from "../protocol/config/schema.generated.js";

/** Default schema for config validation: the whole `openclaw.json` as defined in src/protocol. */
export const DEFAULT_CONFIG_SCHEMA: Record<string, unknown> = CONFIG_JSON_SCHEMA;

/** The config type loadConfig returns by default. */
export type DefaultConfig = OpenClawConfig;
