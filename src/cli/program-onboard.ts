// The wizard commands of the `pincer` tree: `onboard` (first run, interactive or `--non-interactive`
// with OpenClaw's flags) and `configure` (re-run sections). Registered by program.ts; lazy actions.
import { type Command, Option } from "commander";
import { AUTH_CHOICES, OTHER_AUTH_CHOICES, WIZARD_SECTIONS } from "./wizard-answers.js";

/** What program.ts hands over: the lazy action wrapper. */
export interface OnboardCommandTools {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors program.ts's lazy loader signature.
  lazy: (load: () => Promise<{ run: any }>) => (...args: unknown[]) => Promise<void>;
}

const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** OpenClaw's skip flags for steps Pincer's wizard does not have: accepted, nothing to skip. */
const NOTHING_TO_SKIP = ["--skip-skills", "--skip-health", "--skip-ui", "--skip-search"];

/** Adds `onboard` and `configure` to `program`. */
export function registerOnboardCommands(program: Command, tools: OnboardCommandTools): void {
  const { lazy } = tools;
  const choices = [...Object.keys(AUTH_CHOICES), ...OTHER_AUTH_CHOICES].join("|");
  const onboard = program
    .command("onboard")
    .description(
      "first-run wizard: model and key, workspace, gateway, a channel (a terminal, or --non-interactive)",
    )
    .option("--non-interactive", "no questions: take everything from flags (needs --accept-risk)")
    .option(
      "--accept-risk",
      "acknowledge that agents run tools with your rights (required by --non-interactive)",
    )
    .option("--flow <flow>", "quickstart (default: gateway defaults) | advanced | manual")
    .option("--mode <mode>", "local (the only mode Pincer sets up)")
    .option("--auth-choice <choice>", `model provider auth: ${choices}`)
    .option("--model <ref>", "model of that provider (default: the choice's usual model)")
    .option(
      "--secret-input-mode <mode>",
      "plaintext (store the key; default) | ref (store an env reference)",
    );
  for (const [name, choice] of Object.entries(AUTH_CHOICES)) {
    onboard.option(
      `${flagName(choice.keyOption)} <key>`,
      `${choice.provider} API key (--auth-choice ${name}; default $${choice.envVar})`,
    );
  }
  onboard
    .option(
      "--custom-base-url <url>",
      "custom endpoint base URL (--auth-choice custom-api-key or ollama)",
    )
    .option("--custom-api-key <key>", "custom endpoint key (default $CUSTOM_API_KEY)")
    .option("--custom-model-id <id>", "model id at the custom endpoint")
    .option("--custom-provider-id <id>", "provider id for models.providers (default custom)")
    .option("--custom-compatibility <api>", "openai (default) | openai-responses | anthropic")
    .option("--token-provider <id>", "provider of a static token (--auth-choice token)")
    .option("--token <token>", "the token (--auth-choice token)")
    .option("--token-profile-id <id>", "auth profile id (default <provider>:manual)")
    .option("--workspace <dir>", "agent workspace (default ~/.openclaw/workspace)")
    .option("--gateway-port <port>", "gateway port (default the config's, else 18789)")
    .option("--gateway-bind <mode>", "loopback (default) | lan | tailnet")
    .option("--gateway-auth <mode>", "token (default) | password")
    .option("--gateway-token <token>", "gateway token (default: kept, else generated)")
    .option("--gateway-password <password>", "gateway password (--gateway-auth password)")
    .option("--telegram-token <token>", "add a Telegram bot (token from @BotFather)")
    .option("--skip-channels", "add no channel")
    .option("--install-daemon", "then run pincer gateway install (systemd user service)")
    .option("--no-install-daemon", "do not install the service (default)")
    .option("--daemon-runtime <runtime>", "node (the only runtime)")
    .option("--reset", "not supported: onboard never deletes anything")
    .option("--remote-url <url>", "not supported (--mode local only)");
  for (const flag of NOTHING_TO_SKIP) onboard.addOption(new Option(flag).hideHelp());
  onboard.option("--json", "print a JSON summary").action(lazy(() => import("./onboard.js")));

  program
    .command("configure")
    .description("re-run wizard sections on the existing config, prefilled with current values")
    .option(
      "--section <section>",
      `section to run, repeatable: ${WIZARD_SECTIONS.join(", ")} (default: all)`,
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--json", "print a JSON summary")
    .action(lazy(() => import("./configure.js")));
}
