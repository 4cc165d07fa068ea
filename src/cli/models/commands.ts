// The `pincer models` family: status (the default), list, and `auth` (add, login, paste-token,
// setup-token, order, list, remove on an agent's auth-profiles.json). Declarations only; each `run`
// loads on first call. OpenClaw's flags: `--profile-id` names the auth profile (`--profile` is the
// global state-dir flag).
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

const agentOption = value(
  "<id>",
  "agent whose auth-profiles.json to use (default: the default agent)",
);
const profileIdOption = value(
  "<id>",
  "auth profile id, <provider>:<name> or just <name> (default <provider>:default)",
);
const expiresInOption = value("<duration>", "the token expires after this long (e.g. 365d, 12h)");

/** Options of `pincer models auth login`. */
export const authLoginOptions = {
  provider: value("<id>", "OAuth provider: openai-codex, anthropic, github-copilot", {
    required: true,
  }),
  agent: agentOption,
  profileId: profileIdOption,
  browser: flag("open the login URL in a browser (default on a desktop terminal)", {
    negation: "only print the URL (headless hosts: paste the redirect URL back)",
  }),
  timeout: value("<duration>", "give up after this long (default 5m)"),
  json: flag("print JSON"),
};
/** Options of `pincer models auth paste-token`. */
export const pasteTokenOptions = {
  provider: value("<id>", "provider id, e.g. anthropic", { required: true }),
  agent: agentOption,
  profileId: profileIdOption,
  expiresIn: expiresInOption,
  json: flag("print JSON"),
};
/** Options of `pincer models auth setup-token`. */
export const setupTokenOptions = {
  provider: value("<id>", "provider id (default anthropic)"),
  agent: agentOption,
  profileId: profileIdOption,
  expiresIn: expiresInOption,
};
/** Options of `pincer models auth order`. */
export const authOrderOptions = {
  provider: value("<id>", "provider id", { required: true }),
  agent: agentOption,
  json: flag("print JSON"),
};
/** Options of `pincer models auth list`. */
export const authListOptions = {
  agent: agentOption,
  provider: value("<id>", "only this provider's profiles"),
  json: flag("print JSON"),
};
/** Options of `pincer models auth remove`. */
export const authRemoveOptions = {
  agent: agentOption,
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
  defineCommand({
    path: ["models", "auth", "login"],
    description: "log in to a subscription (OpenAI Codex, Claude, GitHub Copilot) through OAuth",
    options: authLoginOptions,
    run: lazyRun(() => import("./auth-login.js")),
  }),
  defineCommand({
    path: ["models", "auth", "paste-token"],
    description: "store a token read from stdin (e.g. an Anthropic setup-token)",
    options: pasteTokenOptions,
    run: lazyRun(() => import("./auth-paste-token.js")),
  }),
  defineCommand({
    path: ["models", "auth", "setup-token"],
    description: "run the provider's CLI (claude setup-token) and store the token it prints",
    options: setupTokenOptions,
    run: lazyRun(() => import("./auth-setup-token.js")),
  }),
  defineCommand({
    path: ["models", "auth", "order"],
    description: "get, set or clear the agent's profile order for a provider",
    arguments: [
      { name: "action", description: "get, set or clear", required: true },
      { name: "profileIds", description: "set: the profile ids, in order", variadic: true },
    ],
    options: authOrderOptions,
    run: lazyRun(() => import("./auth-order.js")),
  }),
  defineCommand({
    path: ["models", "auth", "list"],
    description: "the agent's auth profiles: type, expiry, health and order (no secrets)",
    options: authListOptions,
    run: lazyRun(() => import("./auth-list.js")),
  }),
  defineCommand({
    path: ["models", "auth", "remove"],
    description: "delete one auth profile (and its order entry, health and lastGood mark)",
    arguments: [{ name: "profileId", description: "the profile to delete", required: true }],
    options: authRemoveOptions,
    run: lazyRun(() => import("./auth-remove.js")),
  }),
];
