// `pincer configure [--section model|workspace|gateway|channels]…`: re-runs wizard sections on an
// existing config, each question prefilled with the current value; only what the answers change is
// edited (comments and every other key stay). Interactive only, like OpenClaw's; scripts use
// `pincer onboard --non-interactive` or `pincer config set`.

import type { InputOf } from "../command.js";
import { type CliContext, CliError, displayPath, ExitCode } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { configureOptions } from "./commands.js";
import { WIZARD_SECTIONS, type WizardSection } from "./wizard-answers.js";
import { applyWizardAnswers } from "./wizard-apply.js";
import { askWizard } from "./wizard-interactive.js";
import { CANCELLED, createPrompter } from "./wizard-prompts.js";
import { printWizardOutcome } from "./wizard-summary.js";

/** OpenClaw spellings accepted for a section. */
const SECTION_ALIASES: Record<string, WizardSection> = { models: "model", channel: "channels" };

/** The sections to run (all when none is named); an unknown one is a usage error listing the valid. */
export function parseSections(raw: readonly string[] | undefined): WizardSection[] {
  const names = (raw ?? []).map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) return [...WIZARD_SECTIONS];
  const picked = new Set<WizardSection>();
  const invalid: string[] = [];
  for (const name of names) {
    const section = SECTION_ALIASES[name] ?? name;
    if ((WIZARD_SECTIONS as readonly string[]).includes(section))
      picked.add(section as WizardSection);
    else invalid.push(name);
  }
  if (invalid.length > 0) {
    throw new CliError(
      `invalid --section: ${invalid.join(", ")}; expected one of: ${WIZARD_SECTIONS.join(", ")}`,
      ExitCode.usage,
    );
  }
  return WIZARD_SECTIONS.filter((s) => picked.has(s));
}

/** Re-runs the chosen sections and writes what changed. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof configureOptions>,
): Promise<number> {
  const sections = parseSections(opts.section);
  const loaded = loadForCli(ctx, { requireValid: true });
  if (!loaded.exists) {
    throw new CliError(
      `no config at ${displayPath(loaded.path, loaded.paths.home)} yet: run pincer onboard first`,
    );
  }
  if (!ctx.terminal) {
    throw new CliError(
      "pincer configure asks its questions on a terminal, and this is not one; for scripts use " +
        "pincer onboard --non-interactive --accept-risk … or pincer config set <path> <value>",
      ExitCode.usage,
    );
  }
  const prompter = createPrompter(ctx.terminal);
  const answers = await askWizard({
    prompter,
    loaded,
    sections,
    flow: "advanced",
    env: loaded.env,
    title: `Pincer configure: ${sections.join(", ")}`,
  });
  if (answers === CANCELLED) {
    prompter.cancel("Cancelled: nothing was written.");
    return ExitCode.failure;
  }
  if (Object.keys(answers).length === 0) {
    prompter.outro("Nothing to change: the config was not touched.");
    return ExitCode.ok;
  }
  prompter.outro("Writing the settings.");
  const outcome = await applyWizardAnswers(ctx, {
    loaded,
    answers,
    command: "configure",
    now: new Date(),
    seed: sections.includes("workspace"),
  });
  printWizardOutcome(ctx, outcome, opts.json === true);
  return ExitCode.ok;
}
