// What onboard/configure print once they wrote: the files touched, where the key went (never the key),
// and the next steps (start the gateway, open the Control UI). `--json` gives the same as one object.
import { normalizeUiBasePath } from "../../gateway/http/ui-base-path.js";
import { selectAgent } from "../agent-select.js";
import { type CliContext, displayPath, printJson } from "../command-context.js";
import { DEFAULT_GATEWAY_PORT } from "./wizard-answers.js";
import type { WizardOutcome } from "./wizard-apply.js";

/** The Control UI's URL for the configured port and `gateway.controlUi.basePath` (loopback address). */
export function dashboardUrl(outcome: WizardOutcome): string {
  const gateway = outcome.loaded.config.gateway;
  const configured = gateway?.port;
  const port =
    outcome.answers.gateway?.port ??
    (typeof configured === "number" ? configured : DEFAULT_GATEWAY_PORT);
  const base = normalizeUiBasePath(gateway?.controlUi?.basePath);
  return `http://127.0.0.1:${port}${base.ok ? base.path : ""}/`;
}

const step = (command: string, why: string) => `${command.padEnd(30)} # ${why}`;

/** The commands to run next, each with why. */
export function nextSteps(outcome: WizardOutcome): string[] {
  const steps = [
    step("pincer gateway", "run it in the foreground (pincer gateway install: as a service)"),
    step(dashboardUrl(outcome), "the Control UI once it runs (pincer dashboard: a sign-in link)"),
  ];
  if (outcome.loaded.resolved.defaults.model === undefined)
    steps.push(step("pincer configure --section model", "no model chosen yet"));
  else steps.push(step("pincer models status", "the model and the key it will use"));
  if (outcome.answers.channel)
    steps.push(step("pincer pairing list telegram", "approve whoever messages your bot"));
  return steps;
}

/** Prints the outcome as text or JSON. */
export function printWizardOutcome(ctx: CliContext, outcome: WizardOutcome, json: boolean): void {
  const home = outcome.loaded.paths.home;
  const { answers, key, seeded } = outcome;
  if (json) {
    printJson(ctx, {
      ok: true,
      configPath: outcome.configPath,
      configCreated: outcome.configCreated,
      backupPath: outcome.backupPath ?? null,
      agentId: outcome.agentId,
      workspace: outcome.workspace,
      model: outcome.modelRef ?? null,
      authProfile: key
        ? {
            profileId: key.profileId,
            type: key.type,
            path: key.path,
            reference: key.reference ?? null,
          }
        : null,
      gateway: answers.gateway
        ? {
            port: answers.gateway.port,
            bind: answers.gateway.bind,
            authMode: answers.gateway.auth.mode,
            url: dashboardUrl(outcome),
          }
        : null,
      channels: answers.channel ? [answers.channel.channel] : [],
      created: seeded?.created ?? [],
      nextSteps: nextSteps(outcome).map((line) => line.split("#")[0]?.trim()),
    });
    return;
  }
  const lines: string[] = [];
  const verb = outcome.configCreated ? "created" : "updated";
  lines.push(`config:    ${verb} ${displayPath(outcome.configPath, home)}`);
  if (outcome.backupPath) lines.push(`backup:    ${displayPath(outcome.backupPath, home)}`);
  if (outcome.modelRef) {
    lines.push(`model:     ${outcome.modelRef} (agents.defaults.model)`);
    const own = (selectAgent(outcome.loaded, outcome.agentId).entry as { model?: unknown })?.model;
    if (own !== undefined) {
      lines.push(
        `note:      agent ${outcome.agentId} sets its own model (${JSON.stringify(own)}), which wins`,
      );
    }
  }
  if (key) {
    const how = key.reference ? `reference to ${key.reference.replace(/^env:/, "$")}` : key.type;
    lines.push(`key:       ${key.profileId} (${how}) in ${displayPath(key.path, home)}`);
  }
  if (answers.gateway) {
    const g = answers.gateway;
    lines.push(
      `gateway:   port ${g.port}, bind ${g.bind}, ${g.auth.mode} auth (gateway.auth.${g.auth.mode})`,
    );
  }
  if (answers.channel) lines.push("channel:   telegram (default account)");
  lines.push(`workspace: ${displayPath(outcome.workspace, home)} (agent ${outcome.agentId})`);
  if (seeded?.bootstrapSkipped) lines.push("files:     not seeded (skipBootstrap is set)");
  else if (seeded && seeded.created.length > 0)
    lines.push(`created:   ${seeded.created.join(", ")}`);
  lines.push("", "next:");
  for (const step of nextSteps(outcome)) lines.push(`  ${step}`);
  ctx.stdout(`${lines.join("\n")}\n`);
}
