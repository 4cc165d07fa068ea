// The `pincer models` family: status (the default), list, and `auth add` (an API key from stdin into
// an agent's auth-profiles.json). Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer models`. */
export const modelsGroup = {
  path: ["models"],
  description: "show and manage each agent's models, fallbacks and credentials",
} as const;
/** `pincer models auth`. */
export const modelsAuthGroup = {
  path: ["models", "auth"],
  description: "manage an agent's auth profiles (auth-profiles.json)",
} as const;

/** Options of `pincer models status`. */
export const statusOptions = {
  agent: value("<id>", "only this agent (default: every agent)"),
  check: flag("exit 1 when a model is unknown, has no credential or breaks a fail policy"),
  json: flag("print JSON"),
};
/** Options of `pincer models list`. */
export const listOptions = {
  provider: value("<id>", "only this provider's models"),
  json: flag("print JSON"),
};
/** Options of `pincer models auth add`. */
export const authAddOptions = {
  agent: value("<id>", "agent whose auth-profiles.json to write (default: the default agent)"),
  provider: value("<id>", "provider id, e.g. anthropic, openai, openrouter", { required: true }),
  profileId: value(
    "<id>",
    "auth profile id, <provider>:<name> or just <name> (default <provider>:default); --profile is the global state-dir flag",
  ),
  type: value("<type>", "credential type", { choices: ["api_key", "token"], default: "api_key" }),
  json: flag("print JSON"),
};

/** Every `pincer models` command. */
export const modelsCommands = [
  defineCommand({
    path: ["models", "status"],
    isDefault: true,
    description: "each agent's primary and fallbacks and the credential each would use",
    options: statusOptions,
    run: lazyRun(() => import("./status.js")),
  }),
  defineCommand({
    path: ["models", "list"],
    description: "custom and built-in models, marking the ones agents use",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["models", "auth", "add"],
    description: "store an API key or token read from stdin as <provider>:<name> for one agent",
    options: authAddOptions,
    run: lazyRun(() => import("./auth-add.js")),
  }),
];
