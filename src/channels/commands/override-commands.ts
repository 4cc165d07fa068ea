// The per-session override commands: /think shows or sets the session's thinking level (sent to
// the model by every later run), /model shows, lists or sets the session's model (checked against
// the agent's models and policy). Both are stored in the session entry; a value that is refused
// stores nothing.

import { lookupAgent } from "../../config/resolve.js";
import {
  formatModelRef,
  type ModelRef,
  resolveAgentModelChain,
} from "../../runtime/models/refs.js";
import {
  type AuthProfileScope,
  checkAuthProfileChoice,
  keptAuthProfileOverride,
  listAuthProfilesByProvider,
  splitModelAndProfile,
} from "../../runtime/models/session-auth-profile.js";
import {
  checkModelChoice,
  listAllowedModels,
  type ModelChoiceScope,
  sessionModelOverrideText,
} from "../../runtime/models/session-model.js";
import { takeInlineDirectives } from "../../runtime/run/inline-directives.js";
import { isThinkingLevel, THINKING_LEVELS } from "../../runtime/run/session-overrides.js";
import type { SessionEntry, SessionStoreApi } from "../../sessions/index.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

/** The word that clears an override (the agent's default applies again). */
const CLEAR_WORD = "default";

async function sessionStore(request: CommandRequest, host: CommandHost): Promise<SessionStoreApi> {
  return (await host.runtimeDeps()).stores.forAgent(request.agentId);
}

/** Stores `changes` on the session's entry (created when the session has none yet). */
export function storeOverride(
  store: SessionStoreApi,
  sessionKey: string,
  changes: Partial<SessionEntry>,
): Readonly<SessionEntry> {
  store.getOrCreate(sessionKey);
  return store.annotate(sessionKey, changes);
}

async function think(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const store = await sessionStore(request, host);
  const valid = `${THINKING_LEVELS.join(", ")} (or ${CLEAR_WORD})`;
  const arg = request.args.trim().toLowerCase();
  if (!arg) {
    const current = store.get(request.sessionKey)?.thinkingLevel;
    return { text: `Thinking level: ${current ?? "default"}. Set it with /think <${valid}>.` };
  }
  if (arg === CLEAR_WORD) {
    storeOverride(store, request.sessionKey, { thinkingLevel: undefined });
    host.announce?.(request.sessionKey, "patch");
    return { text: "Thinking level cleared: the model's default applies." };
  }
  if (!isThinkingLevel(arg)) {
    return { text: `Unknown thinking level "${request.args.trim()}". Valid: ${valid}.` };
  }
  storeOverride(store, request.sessionKey, { thinkingLevel: arg });
  host.announce?.(request.sessionKey, "patch");
  return { text: `Thinking level set to ${arg} for this session.` };
}

/** What a model choice of this request's agent is checked against (the config current now). */
export async function choiceScope(
  request: Pick<CommandRequest, "agentId">,
  host: CommandHost,
): Promise<ModelChoiceScope> {
  const deps = await host.runtimeDeps();
  return { cfg: deps.config, agentId: request.agentId, env: deps.env };
}

function describeAllowed(scope: ModelChoiceScope, profiles: AuthProfileScope): string {
  const allowed = listAllowedModels(scope);
  const lines = allowed.models.map(
    (model) => `- ${model.ref}${model.alias ? ` (alias ${model.alias})` : ""}`,
  );
  if (allowed.open) lines.push("- any other known model the model policy allows (provider/model)");
  const byProvider = listAuthProfilesByProvider(profiles);
  const profileLines = [...byProvider].map(([provider, ids]) => `- ${provider}: ${ids.join(", ")}`);
  const profileText = profileLines.length
    ? `\nAuth profiles (choose one with /model <model>@<profile>):\n${profileLines.join("\n")}`
    : "";
  return `Models you can choose:\n${lines.join("\n")}${profileText}`;
}

/** Where the request's agent keeps its auth profiles (the config current now). */
async function profileScope(
  request: Pick<CommandRequest, "agentId">,
  host: CommandHost,
): Promise<AuthProfileScope> {
  const deps = await host.runtimeDeps();
  const agent = lookupAgent(deps.config, request.agentId);
  const authStores = deps.caches?.authStores;
  return {
    agentDir: agent.agentDir,
    cfg: deps.config.config,
    ...(authStores ? { authStores } : {}),
  };
}

/** A checked `<model>[@<profile>]` choice: what to store, or why it is refused. */
export type SessionModelPick =
  | {
      ok: true;
      ref: ModelRef;
      changes: Partial<SessionEntry>;
      profileId?: string;
      dropped?: string;
    }
  | { ok: false; text: string };

/** Checks a typed `<ref|alias>[@<profileId>]` (`@<profileId>` alone: the session's current model)
 *  without storing anything. Without a profile, a pin of the same provider is kept, another's dropped. */
export async function checkSessionModel(
  request: Pick<CommandRequest, "agentId" | "sessionKey">,
  host: CommandHost,
  typed: string,
): Promise<SessionModelPick> {
  const scope = await choiceScope(request, host);
  const profiles = await profileScope(request, host);
  const entry = (await host.runtimeDeps()).stores.forAgent(request.agentId).get(request.sessionKey);
  const split = splitModelAndProfile(typed, (raw) => checkModelChoice(scope, raw).ok);
  const primary = resolveAgentModelChain({ cfg: scope.cfg, agentId: request.agentId }).primary;
  const current = sessionModelOverrideText(entry) ?? (primary ? formatModelRef(primary) : "");
  const choice = checkModelChoice(scope, split.model || current);
  if (!choice.ok) return { ok: false, text: `Model not changed: ${choice.error}.` };
  const provider = choice.ref.provider;
  const pinned = entry?.authProfileOverride;
  let profileId: string | undefined;
  if (split.profileId !== undefined) {
    const pick = checkAuthProfileChoice(profiles, { provider, profileId: split.profileId });
    if (!pick.ok) return { ok: false, text: `Model not changed: ${pick.error}.` };
    profileId = pick.profileId;
  } else {
    profileId = keptAuthProfileOverride(profiles, { current: pinned, provider });
  }
  const dropped = pinned && pinned !== profileId ? pinned : undefined;
  return {
    ok: true,
    ref: choice.ref,
    changes: {
      providerOverride: provider,
      modelOverride: choice.ref.model,
      authProfileOverride: profileId,
    },
    ...(profileId ? { profileId } : {}),
    ...(dropped && split.profileId === undefined ? { dropped } : {}),
  };
}

/** Sets the session's model (and auth profile) from a typed `<ref|alias>[@<profileId>]`; a refused
 *  choice stores nothing. `ref` names the model (and its profile), `note` a pin that was dropped. */
export async function chooseSessionModel(
  request: Pick<CommandRequest, "agentId" | "sessionKey">,
  host: CommandHost,
  typed: string,
): Promise<{ ok: true; ref: string; note: string } | { ok: false; text: string }> {
  const pick = await checkSessionModel(request, host, typed);
  if (!pick.ok) return pick;
  const store = (await host.runtimeDeps()).stores.forAgent(request.agentId);
  storeOverride(store, request.sessionKey, pick.changes);
  host.announce?.(request.sessionKey, "patch");
  const profile = pick.profileId ? ` (auth profile ${pick.profileId})` : "";
  const note = pick.dropped ? ` Auth profile ${pick.dropped} is another provider's: cleared.` : "";
  return { ok: true, ref: `${formatModelRef(pick.ref)}${profile}`, note };
}

async function model(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const arg = request.args.trim();
  const scope = await choiceScope(request, host);
  const profiles = await profileScope(request, host);
  if (arg.toLowerCase() === "list") return { text: describeAllowed(scope, profiles) };
  const store = (await host.runtimeDeps()).stores.forAgent(request.agentId);
  const entry = store.get(request.sessionKey);
  const primary = resolveAgentModelChain({ cfg: scope.cfg, agentId: request.agentId }).primary;
  if (!arg) {
    const override = sessionModelOverrideText(entry);
    const agentDefault = primary ? formatModelRef(primary) : "none";
    const profile = entry?.authProfileOverride
      ? ` Auth profile: ${entry.authProfileOverride} (this session's choice).`
      : "";
    return {
      text: override
        ? `Model: ${override} (this session's choice; the agent's default is ${agentDefault}).${profile} /model list shows the others.`
        : `Model: ${agentDefault} (the agent's default).${profile} /model list shows the others.`,
    };
  }
  if (arg.toLowerCase() === CLEAR_WORD) {
    // A pin of the default model's provider stays (it is kept per provider).
    const kept = primary
      ? keptAuthProfileOverride(profiles, {
          current: entry?.authProfileOverride,
          provider: primary.provider,
        })
      : undefined;
    storeOverride(store, request.sessionKey, {
      modelOverride: undefined,
      providerOverride: undefined,
      authProfileOverride: kept,
    });
    host.announce?.(request.sessionKey, "patch");
    return { text: "Model choice cleared: the agent's default model applies." };
  }
  const chosen = await chooseSessionModel(request, host, arg);
  return {
    text: chosen.ok ? `Model set to ${chosen.ref} for this session.${chosen.note}` : chosen.text,
  };
}

/** The override command definitions. */
export const overrideCommands: CommandDefinition[] = [
  {
    name: "think",
    aliases: ["thinking"],
    args: `[${THINKING_LEVELS.join("|")}]`,
    description: "show or set this session's thinking level",
    changesState: true,
    isDirective: (args) => takeInlineDirectives(`/think ${args}`).thinkingLevel !== undefined,
    run: think,
  },
  {
    name: "model",
    aliases: [],
    args: "[provider/model|alias][@profile]|list|default",
    description: "show, list or choose this session's model",
    changesState: true,
    run: model,
  },
];
