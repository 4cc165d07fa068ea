// `pincer onboard` (first run, interactive or `--non-interactive` with OpenClaw's flags) and `pincer
// configure` (re-run sections). Declarations only; each `run` loads on first call. The per-provider
// key options come from AUTH_CHOICES, one `--<provider>-api-key <key>` per choice.
import {
  defineCommand,
  flag,
  lazyRun,
  list,
  type OptionsOf,
  type ValueOption,
  value,
} from "../command.js";
import { AUTH_CHOICES, OTHER_AUTH_CHOICES, WIZARD_SECTIONS } from "./wizard-answers.js";

const authChoices = [...Object.keys(AUTH_CHOICES), ...OTHER_AUTH_CHOICES].join("|");

/** One `--<provider>-api-key <key>` per AUTH_CHOICES entry, keyed by its option key. */
const providerKeyOptions: Record<string, ValueOption> = Object.fromEntries(
  Object.entries(AUTH_CHOICES).map(([name, choice]) => [
    choice.keyOption,
    value("<key>", `${choice.provider} API key (--auth-choice ${name}; default $${choice.envVar})`),
  ]),
);

/** OpenClaw's skip flags for steps Pincer's wizard does not have: accepted, nothing to skip. */
const nothingToSkip = {
  skipSkills: flag("nothing to skip", { hidden: true }),
  skipHealth: flag("nothing to skip", { hidden: true }),
  skipUi: flag("nothing to skip", { hidden: true }),
  skipSearch: flag("nothing to skip", { hidden: true }),
};

/** Options of `pincer onboard`, in help order. */
export const onboardOptions = {
  nonInteractive: flag("no questions: take everything from flags (needs --accept-risk)"),
  acceptRisk: flag(
    "acknowledge that agents run tools with your rights (required by --non-interactive)",
  ),
  flow: value("<flow>", "quickstart (default: gateway defaults) | advanced | manual"),
  mode: value("<mode>", "local (the only mode Pincer sets up)"),
  authChoice: value("<choice>", `model provider auth: ${authChoices}`),
  model: value("<ref>", "model of that provider (default: the choice's usual model)"),
  secretInputMode: value(
    "<mode>",
    "plaintext (store the key; default) | ref (store an env reference)",
  ),
  ...providerKeyOptions,
  customBaseUrl: value(
    "<url>",
    "custom endpoint base URL (--auth-choice custom-api-key or ollama)",
  ),
  customApiKey: value("<key>", "custom endpoint key (default $CUSTOM_API_KEY)"),
  customModelId: value("<id>", "model id at the custom endpoint"),
  customProviderId: value("<id>", "provider id for models.providers (default custom)"),
  customCompatibility: value("<api>", "openai (default) | openai-responses | anthropic"),
  tokenProvider: value("<id>", "provider of a static token (--auth-choice token)"),
  token: value("<token>", "the token (--auth-choice token)"),
  tokenProfileId: value("<id>", "auth profile id (default <provider>:manual)"),
  workspace: value("<dir>", "agent workspace (default ~/.openclaw/workspace)"),
  gatewayPort: value("<port>", "gateway port (default the config's, else 18789)"),
  gatewayBind: value("<mode>", "loopback (default) | lan | tailnet"),
  gatewayAuth: value("<mode>", "token (default) | password"),
  gatewayToken: value("<token>", "gateway token (default: kept, else generated)"),
  gatewayPassword: value("<password>", "gateway password (--gateway-auth password)"),
  telegramToken: value("<token>", "add a Telegram bot (token from @BotFather)"),
  skipChannels: flag("add no channel"),
  installDaemon: flag("then run pincer gateway install (systemd user service)", {
    negation: "do not install the service (default)",
  }),
  daemonRuntime: value("<runtime>", "node (the only runtime)"),
  reset: flag("not supported: onboard never deletes anything"),
  remoteUrl: value("<url>", "not supported (--mode local only)"),
  ...nothingToSkip,
  json: flag("print a JSON summary"),
};

/** The options `pincer onboard` runs with: the declared ones, plus the provider key options read by
 * their key (they are declared from AUTH_CHOICES, so their names are not in the static type). */
export type OnboardFlags = OptionsOf<typeof onboardOptions> & {
  readonly [keyOption: string]: unknown;
};

/** Options of `pincer configure`. */
export const configureOptions = {
  section: list(
    "<section>",
    `section to run, repeatable: ${WIZARD_SECTIONS.join(", ")} (default: all)`,
  ),
  json: flag("print a JSON summary"),
};

/** `pincer onboard` and `pincer configure`, in help order. */
export const onboardCommands = [
  defineCommand({
    path: ["onboard"],
    description:
      "first-run wizard: model and key, workspace, gateway, a channel (a terminal, or --non-interactive)",
    options: onboardOptions,
    run: lazyRun(() => import("./onboard.js")),
  }),
  defineCommand({
    path: ["configure"],
    description: "re-run wizard sections on the existing config, prefilled with current values",
    options: configureOptions,
    run: lazyRun(() => import("./configure.js")),
  }),
];
