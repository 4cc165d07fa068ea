// The per-session override commands: /think shows or sets the session's thinking level (sent to
// the model by every later run), /model shows, lists or sets the session's model (checked against
// the agent's models and policy). Both are stored in the session entry; a value that is refused
// stores nothing.

import { formatModelRef, resolveAgentModelChain } from "../../runtime/models/refs.js";
import {
  checkModelChoice,
  listAllowedModels,
  type ModelChoiceScope,
  sessionModelOverrideText,
} from "../../runtime/models/session-model.js";
import { takeInlineDirectives } from "../../runtime/run/inline-directives.js";
import { isThinkingLevel, THINKING_LEVELS } from "../../runtime/run/session-overrides.js";
import type { SessionEntry, SessionStore } from "../../sessions/index.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

/** The word that clears an override (the agent's default applies again). */
const CLEAR_WORD = "default";

async function sessionStore(request: CommandRequest, host: CommandHost): Promise<SessionStore> {
  return (await host.runtimeDeps()).stores.forAgent(request.agentId);
}

/** Stores `changes` on the session's entry (created when the session has none yet). */
export function storeOverride(
  store: SessionStore,
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

function describeAllowed(scope: ModelChoiceScope): string {
  const allowed = listAllowedModels(scope);
  const lines = allowed.models.map(
    (model) => `- ${model.ref}${model.alias ? ` (alias ${model.alias})` : ""}`,
  );
  if (allowed.open) lines.push("- any other known model the model policy allows (provider/model)");
  return `Models you can choose:\n${lines.join("\n")}`;
}

/** Sets the session's model from a typed ref or alias; a refused choice stores nothing. */
export async function chooseSessionModel(
  request: Pick<CommandRequest, "agentId" | "sessionKey">,
  host: CommandHost,
  typed: string,
): Promise<{ ok: true; ref: string } | { ok: false; text: string }> {
  if (typed.includes("@")) {
    return {
      ok: false,
      text: `Choosing an auth profile (${typed}) is not available yet; nothing was changed.`,
    };
  }
  const scope = await choiceScope(request, host);
  const choice = checkModelChoice(scope, typed);
  if (!choice.ok) return { ok: false, text: `Model not changed: ${choice.error}.` };
  const store = (await host.runtimeDeps()).stores.forAgent(request.agentId);
  storeOverride(store, request.sessionKey, {
    providerOverride: choice.ref.provider,
    modelOverride: choice.ref.model,
  });
  host.announce?.(request.sessionKey, "patch");
  return { ok: true, ref: formatModelRef(choice.ref) };
}

async function model(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const arg = request.args.trim();
  const scope = await choiceScope(request, host);
  if (arg.toLowerCase() === "list") return { text: describeAllowed(scope) };
  const store = (await host.runtimeDeps()).stores.forAgent(request.agentId);
  if (!arg) {
    const override = sessionModelOverrideText(store.get(request.sessionKey));
    const primary = resolveAgentModelChain({ cfg: scope.cfg, agentId: request.agentId }).primary;
    const agentDefault = primary ? formatModelRef(primary) : "none";
    return {
      text: override
        ? `Model: ${override} (this session's choice; the agent's default is ${agentDefault}). /model list shows the others.`
        : `Model: ${agentDefault} (the agent's default). /model list shows the others.`,
    };
  }
  if (arg.toLowerCase() === CLEAR_WORD) {
    storeOverride(store, request.sessionKey, {
      modelOverride: undefined,
      providerOverride: undefined,
    });
    host.announce?.(request.sessionKey, "patch");
    return { text: "Model choice cleared: the agent's default model applies." };
  }
  const chosen = await chooseSessionModel(request, host, arg);
  return { text: chosen.ok ? `Model set to ${chosen.ref} for this session.` : chosen.text };
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
    args: "[provider/model|alias|list|default]",
    description: "show, list or choose this session's model",
    changesState: true,
    run: model,
  },
];
