// Writes one wizard run's answers, only after every question was answered: the config edits first
// (validated, comment-preserving, under the config write lock; an invalid result writes nothing),
// then the provider key into the default agent's auth-profiles.json (0600, never openclaw.json), then
// the workspace seed (setup's templates; existing files are never overwritten).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { resolveSkipBootstrap } from "../../agents/bootstrap-config.js";
import { type SeedWorkspaceResult, seedWorkspace } from "../../agents/workspace.js";
import type { LoadedConfig } from "../../config/index.js";
import { setAuthProfile } from "../../runtime/models/auth-store.js";
import type { AuthCredential } from "../../runtime/models/index.js";
import { selectAgent } from "../agent-select.js";
import type { CliContext } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import { workspaceKeyFor } from "../setup/setup.js";
import type { ModelAnswer, WizardAnswers } from "./wizard-answers.js";
import { buildWizardEdits, modelRefOf } from "./wizard-edits.js";

/** Inputs of {@link applyWizardAnswers}. */
export interface ApplyWizardParams {
  loaded: LoadedConfig;
  answers: WizardAnswers;
  command: "onboard" | "configure";
  now: Date;
  /** Seed the workspace (onboard always; configure when its workspace section ran). */
  seed: boolean;
}

/** The stored credential: its profile id, type and file (never the secret). */
export interface StoredKey {
  profileId: string;
  type: "api_key" | "token";
  reference?: string;
  path: string;
}

/** What a run wrote, for the summary and `--json`. */
export interface WizardOutcome {
  configPath: string;
  configCreated: boolean;
  backupPath?: string;
  agentId: string;
  workspace: string;
  modelRef?: string;
  key?: StoredKey;
  seeded?: SeedWorkspaceResult;
  answers: WizardAnswers;
  loaded: LoadedConfig;
}

/** The auth profile a model answer stores, if any (a custom provider's env key lives in its config). */
function credentialFor(
  model: ModelAnswer,
): { profileId: string; profile: AuthCredential; reference?: string } | undefined {
  const provider = model.kind === "builtin" ? model.provider : model.providerId;
  const name = model.kind === "builtin" ? (model.profileName ?? "default") : "default";
  const profileId = `${provider}:${name}`;
  const { key } = model;
  if (key.kind === "inline") {
    const profile: AuthCredential =
      key.type === "token"
        ? { type: "token", provider, token: key.secret }
        : { type: "api_key", provider, key: key.secret };
    return { profileId, profile };
  }
  if (key.kind === "env" && model.kind === "builtin") {
    const profile: AuthCredential = {
      type: "api_key",
      provider,
      keyRef: { source: "env", id: key.envVar },
    };
    return { profileId, profile, reference: `env:${key.envVar}` };
  }
  return undefined;
}

/** Applies the answers; a config that would be invalid throws a CliError before anything is written. */
export async function applyWizardAnswers(
  ctx: CliContext,
  params: ApplyWizardParams,
): Promise<WizardOutcome> {
  const { loaded, answers } = params;
  const { agentId } = selectAgent(loaded);
  const workspaceKey = workspaceKeyFor(loaded, agentId);
  mkdirSync(dirname(loaded.path), { recursive: true, mode: 0o700 });
  applyConfigEdits(ctx, {
    edits: (current) =>
      buildWizardEdits({
        answers,
        current,
        workspaceKey,
        command: params.command,
        now: params.now,
      }),
    summary: `${params.command}: updated`,
    quiet: true,
    loaded,
  });
  const after = loadForCli(ctx, { requireValid: true });
  const { agent } = selectAgent(after, agentId);
  const outcome: WizardOutcome = {
    configPath: after.path,
    configCreated: !loaded.exists,
    ...(loaded.exists ? { backupPath: `${loaded.path}.bak` } : {}),
    agentId,
    workspace: agent.workspace,
    answers,
    loaded: after,
  };
  if (answers.model) {
    outcome.modelRef = modelRefOf(answers.model);
    const credential = credentialFor(answers.model);
    if (credential) {
      const path = setAuthProfile({
        agentDir: agent.agentDir,
        profileId: credential.profileId,
        profile: credential.profile,
      });
      const type = credential.profile.type === "token" ? "token" : "api_key";
      outcome.key = {
        profileId: credential.profileId,
        type,
        ...(credential.reference ? { reference: credential.reference } : {}),
        path,
      };
    }
  }
  if (params.seed) {
    outcome.seeded = await seedWorkspace({
      dir: agent.workspace,
      skipBootstrap: resolveSkipBootstrap(after.config, agentId),
    });
  }
  return outcome;
}
