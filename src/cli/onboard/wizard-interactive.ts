// Runs the chosen wizard sections on a terminal, in order (model, workspace, gateway, channels), then
// shows what will be written and asks before writing. Every question comes before any write, so a
// cancel at any step (or "no" at the end) leaves the config, the keys and the workspace untouched.
import type { LoadedConfig } from "../../config/index.js";
import { selectAgent } from "../agent-select.js";
import { displayPath } from "../command-context.js";
import type { WizardFlow } from "./flags.js";
import type { WizardAnswers, WizardSection } from "./wizard-answers.js";
import { modelRefOf } from "./wizard-edits.js";
import { type Asked, CANCELLED, type Prompter } from "./wizard-prompts.js";
import { askChannel } from "./wizard-step-channel.js";
import { askGateway, askWorkspace, quickstartGateway } from "./wizard-step-gateway.js";
import { askModel } from "./wizard-step-model.js";

/** Inputs of {@link askWizard}. */
export interface AskWizardParams {
  prompter: Prompter;
  loaded: LoadedConfig;
  sections: readonly WizardSection[];
  flow: WizardFlow;
  env: Record<string, string | undefined>;
  title: string;
  /** `--workspace`: the folder offered instead of the current one. */
  workspaceDefault?: string;
  /** Show the risk note first (onboard; `--non-interactive` asks for `--accept-risk` instead). */
  riskNote?: boolean;
}

/** What `--accept-risk` acknowledges, shown before the first question. */
const RISK_NOTE = [
  "Agents run tools (shell, files, web) with your user's rights.",
  "Keep the gateway on loopback or behind its token; strangers who DM a bot must be paired first.",
].join("\n");

/** The default agent's current primary model ref, as configured. */
function currentModelRef(loaded: LoadedConfig): string | undefined {
  // The resolved defaults: a legacy top-level `agent.model` counts too.
  const model = loaded.resolved.defaults.model as unknown;
  if (typeof model === "string") return model;
  const primary = (model as { primary?: unknown } | undefined)?.primary;
  return typeof primary === "string" ? primary : undefined;
}

/** One line per decided section, secrets never shown. */
export function describeAnswers(answers: WizardAnswers, home: string): string[] {
  const lines: string[] = [];
  const { model, gateway, channel } = answers;
  if (model) {
    const key =
      model.key.kind === "inline"
        ? "key pasted (stored in auth-profiles.json)"
        : model.key.kind === "env"
          ? `key from $${model.key.envVar}`
          : "no new key";
    lines.push(`Model:     ${modelRefOf(model)} (${key})`);
    if (model.kind === "custom") lines.push(`Endpoint:  ${model.baseUrl} (${model.api})`);
  }
  if (answers.workspace !== undefined)
    lines.push(`Workspace: ${displayPath(answers.workspace, home)}`);
  if (gateway) {
    lines.push(`Gateway:   port ${gateway.port}, ${gateway.bind}, ${gateway.auth.mode} auth`);
  }
  if (channel) lines.push("Channel:   Telegram bot (token checked)");
  return lines;
}

/** Asks the sections; CANCELLED when the user stops (nothing may be written then). */
export async function askWizard(params: AskWizardParams): Promise<Asked<WizardAnswers>> {
  const { prompter: p, loaded, sections } = params;
  const { agentId, agent } = selectAgent(loaded);
  p.intro(params.title);
  if (params.riskNote) p.note(RISK_NOTE, "Before you start");
  if (loaded.exists) {
    p.info(
      `Updating ${displayPath(loaded.path, loaded.paths.home)}; keys you do not change stay as they are.`,
    );
  }
  const answers: WizardAnswers = {};
  if (sections.includes("model")) {
    const currentRef = currentModelRef(loaded);
    const model = await askModel(p, {
      agentDir: agent.agentDir,
      env: params.env,
      ...(currentRef ? { currentRef } : {}),
    });
    if (model === CANCELLED) return CANCELLED;
    if (model) answers.model = model;
  }
  if (sections.includes("workspace")) {
    const workspace = await askWorkspace(p, {
      loaded,
      currentDir: agent.workspace,
      ...(params.workspaceDefault ? { offered: params.workspaceDefault } : {}),
    });
    if (workspace === CANCELLED) return CANCELLED;
    if (workspace !== undefined) answers.workspace = workspace;
  }
  if (sections.includes("gateway")) {
    const gateway =
      params.flow === "quickstart" ? quickstartGateway(loaded) : await askGateway(p, loaded);
    if (gateway === CANCELLED) return CANCELLED;
    answers.gateway = gateway;
  }
  if (sections.includes("channels")) {
    const channel = await askChannel(p, loaded);
    if (channel === CANCELLED) return CANCELLED;
    if (channel) answers.channel = channel;
  }
  const lines = describeAnswers(answers, loaded.paths.home);
  if (lines.length === 0) return answers;
  p.note(lines.join("\n"), `For agent ${agentId}`);
  const ok = await p.confirm({
    message: `Write this to ${displayPath(loaded.path, loaded.paths.home)}?`,
    initialValue: true,
  });
  if (ok === CANCELLED || ok === false) return CANCELLED;
  return answers;
}
