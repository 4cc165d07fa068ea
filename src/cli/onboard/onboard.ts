// `pincer onboard`: the first-run wizard. On a terminal it asks for the model and key, the workspace,
// the gateway and a channel, then writes them (config edits keep everything else in the file); with
// `--non-interactive --accept-risk` the same comes from OpenClaw's flags. Without a terminal and
// without `--non-interactive` it refuses, naming the flags to use.

import { flagName, type InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { OnboardFlags, onboardOptions } from "./commands.js";
import { answersFromFlags, checkCommonFlags } from "./flags.js";
import { AUTH_CHOICES, WIZARD_SECTIONS, type WizardAnswers } from "./wizard-answers.js";
import { applyWizardAnswers } from "./wizard-apply.js";
import { askWizard } from "./wizard-interactive.js";
import { CANCELLED, createPrompter } from "./wizard-prompts.js";
import { printWizardOutcome } from "./wizard-summary.js";

/** The message for a run with no terminal and no `--non-interactive`. */
export const NEEDS_TERMINAL =
  "pincer onboard asks its questions on a terminal, and this is not one. For scripts use: " +
  "pincer onboard --non-interactive --accept-risk --auth-choice <choice> [--<provider>-api-key KEY | " +
  "--custom-base-url URL --custom-model-id ID] [--workspace DIR] [--gateway-port N] " +
  "[--gateway-bind loopback|lan|tailnet] [--gateway-auth token|password] [--telegram-token T] [--json]";

/** Option keys that only mean something with `--non-interactive` (the wizard asks for them). */
const SCRIPT_ONLY = [
  "authChoice",
  "model",
  "secretInputMode",
  "customBaseUrl",
  "customApiKey",
  "customModelId",
  "customProviderId",
  "customCompatibility",
  "tokenProvider",
  "token",
  "tokenProfileId",
  "gatewayPort",
  "gatewayBind",
  "gatewayAuth",
  "gatewayToken",
  "gatewayPassword",
  "telegramToken",
  ...Object.values(AUTH_CHOICES).map((c) => c.keyOption),
];

async function interactiveAnswers(
  ctx: CliContext,
  params: { opts: OnboardFlags; loaded: ReturnType<typeof loadForCli> },
): Promise<WizardAnswers | undefined> {
  const given = SCRIPT_ONLY.filter((key) => params.opts[key] !== undefined).map(flagName);
  if (given.length > 0) {
    throw new CliError(
      `${given.join(", ")}: only with --non-interactive (the wizard asks for these)`,
      ExitCode.usage,
    );
  }
  if (!ctx.terminal) throw new CliError(NEEDS_TERMINAL, ExitCode.usage);
  const prompter = createPrompter(ctx.terminal);
  const answers = await askWizard({
    prompter,
    loaded: params.loaded,
    sections: WIZARD_SECTIONS.filter((s) => !(s === "channels" && params.opts.skipChannels)),
    flow: checkCommonFlags(params.opts),
    ...(params.opts.workspace !== undefined ? { workspaceDefault: params.opts.workspace } : {}),
    env: params.loaded.env,
    title: "Pincer setup",
    riskNote: true,
  });
  if (answers === CANCELLED) {
    prompter.cancel("Cancelled: nothing was written.");
    return undefined;
  }
  prompter.outro("Writing the settings.");
  return answers;
}

/** Runs the wizard (or the flags), writes the result, seeds the workspace and prints next steps. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof onboardOptions>,
): Promise<number> {
  checkCommonFlags(opts);
  const loaded = loadForCli(ctx, { requireValid: true });
  const answers = opts.nonInteractive
    ? answersFromFlags(opts, { loaded, env: loaded.env })
    : await interactiveAnswers(ctx, { opts, loaded });
  if (!answers) return ExitCode.failure;
  const outcome = await applyWizardAnswers(ctx, {
    loaded,
    answers,
    command: "onboard",
    now: new Date(),
    seed: true,
  });
  printWizardOutcome(ctx, outcome, opts.json === true);
  if (opts.installDaemon) {
    const install = await import("../gateway/install.js");
    return install.run(ctx, { args: [], opts: { port: undefined, force: undefined } });
  }
  return ExitCode.ok;
}
