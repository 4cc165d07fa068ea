// The config edits of one wizard run: set exactly the keys its answers decide (model, custom provider,
// workspace, gateway listener and auth, Telegram token, the `wizard` run record), leaving every other
// key, comment and layout of openclaw.json as it is. Pure: the writer applies them under the lock.
import { type ConfigEdit, formatConfigPath, getConfigValue } from "../../config/index.js";
import type {
  ChannelAnswer,
  GatewayAnswer,
  KeyAnswer,
  ModelAnswer,
  WizardAnswers,
} from "./wizard-answers.js";

/** Inputs of {@link buildWizardEdits}. */
export interface WizardEditsParams {
  answers: WizardAnswers;
  /** The config as it is at write time (resolved value). */
  current: unknown;
  /** Where the default agent's workspace is configured (setup.ts's workspaceKeyFor). */
  workspaceKey: string;
  command: "onboard" | "configure";
  now: Date;
}

const at = (current: unknown, segments: string[]): unknown => {
  const found = getConfigValue(current, segments);
  return found.ok ? found.value : undefined;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The model ref as `agents.defaults.model` stores it. */
export function modelRefOf(model: ModelAnswer): string {
  return model.kind === "builtin"
    ? `${model.provider}/${model.modelId}`
    : `${model.providerId}/${model.modelId}`;
}

/** `agents.defaults.model`: the primary replaced, fallbacks kept; a string stays a string. */
function defaultModelEdits(current: unknown, ref: string): ConfigEdit[] {
  const existing = at(current, ["agents", "defaults", "model"]);
  if (isObject(existing)) return [{ op: "set", path: "agents.defaults.model.primary", value: ref }];
  if (typeof existing === "string")
    return [{ op: "set", path: "agents.defaults.model", value: ref }];
  return [{ op: "set", path: "agents.defaults.model", value: { primary: ref } }];
}

/** OpenClaw's env SecretRef shape for a custom provider's `apiKey`. */
function envRef(key: KeyAnswer): { source: "env"; provider: "default"; id: string } | undefined {
  return key.kind === "env" ? { source: "env", provider: "default", id: key.envVar } : undefined;
}

/** `models.providers.<id>`: created whole, or its baseUrl/api updated and the model appended. */
function customProviderEdits(
  current: unknown,
  model: Extract<ModelAnswer, { kind: "custom" }>,
): ConfigEdit[] {
  const base = ["models", "providers", model.providerId];
  const path = (...rest: string[]) => formatConfigPath([...base, ...rest]);
  const apiKey = envRef(model.key);
  const entry = { id: model.modelId, name: model.modelId };
  const existing = at(current, base);
  if (!isObject(existing)) {
    const value = {
      baseUrl: model.baseUrl,
      api: model.api,
      ...(apiKey ? { apiKey } : {}),
      models: [entry],
    };
    return [{ op: "set", path: path(), value }];
  }
  const edits: ConfigEdit[] = [
    { op: "set", path: path("baseUrl"), value: model.baseUrl },
    { op: "set", path: path("api"), value: model.api },
  ];
  if (apiKey) edits.push({ op: "set", path: path("apiKey"), value: apiKey });
  const listed = Array.isArray(existing.models) ? existing.models : undefined;
  const known = listed?.some((item) => isObject(item) && item.id === model.modelId);
  if (!listed) edits.push({ op: "set", path: path("models"), value: [entry] });
  else if (!known) edits.push({ op: "append", path: path("models"), value: entry });
  return edits;
}

function gatewayEdits(current: unknown, gateway: GatewayAnswer): ConfigEdit[] {
  const edits: ConfigEdit[] = [
    { op: "set", path: "gateway.mode", value: "local" },
    { op: "set", path: "gateway.port", value: gateway.port },
    { op: "set", path: "gateway.bind", value: gateway.bind },
    { op: "set", path: "gateway.auth.mode", value: gateway.auth.mode },
  ];
  // The secret of the mode not chosen is removed, so no stale credential stays in the file.
  if (gateway.auth.mode === "token") {
    const { token } = gateway.auth;
    if (token !== undefined) edits.push({ op: "set", path: "gateway.auth.token", value: token });
    if (at(current, ["gateway", "auth", "password"]) !== undefined)
      edits.push({ op: "delete", path: "gateway.auth.password" });
  } else {
    const { password } = gateway.auth;
    if (password !== undefined)
      edits.push({ op: "set", path: "gateway.auth.password", value: password });
    if (at(current, ["gateway", "auth", "token"]) !== undefined)
      edits.push({ op: "delete", path: "gateway.auth.token" });
  }
  return edits;
}

/** The key a channel account's token goes to: channel level for `default` without `accounts`. */
export function channelTokenPath(current: unknown, channel: ChannelAnswer): string {
  const accounts = at(current, ["channels", channel.channel, "accounts"]);
  if (channel.account === "default" && !isObject(accounts))
    return formatConfigPath(["channels", channel.channel, "botToken"]);
  return formatConfigPath(["channels", channel.channel, "accounts", channel.account, "botToken"]);
}

function channelEdits(current: unknown, channel: ChannelAnswer): ConfigEdit[] {
  const edits: ConfigEdit[] = [
    { op: "set", path: channelTokenPath(current, channel), value: channel.token },
  ];
  // Setting a channel up means wanting it on: an explicit `enabled: false` is turned back on.
  if (at(current, ["channels", channel.channel, "enabled"]) === false)
    edits.push({ op: "set", path: `channels.${channel.channel}.enabled`, value: true });
  return edits;
}

/** OpenClaw's local-onboarding defaults, set only where the config has no value: the coding tool
 * profile, and one DM session per channel and peer (people writing to the bot do not share one). */
function onboardDefaults(current: unknown): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  if (at(current, ["tools", "profile"]) === undefined)
    edits.push({ op: "set", path: "tools.profile", value: "coding" });
  if (at(current, ["session", "dmScope"]) === undefined)
    edits.push({ op: "set", path: "session.dmScope", value: "per-channel-peer" });
  return edits;
}

/** The edits for `answers`, in file order: model, providers, workspace, gateway, channels, the
 * onboard defaults, wizard. */
export function buildWizardEdits(params: WizardEditsParams): ConfigEdit[] {
  const { answers, current } = params;
  const edits: ConfigEdit[] = [];
  if (answers.model) {
    edits.push(...defaultModelEdits(current, modelRefOf(answers.model)));
    if (answers.model.kind === "custom") edits.push(...customProviderEdits(current, answers.model));
  }
  if (answers.workspace !== undefined)
    edits.push({ op: "set", path: params.workspaceKey, value: answers.workspace });
  if (answers.gateway) edits.push(...gatewayEdits(current, answers.gateway));
  if (answers.channel) edits.push(...channelEdits(current, answers.channel));
  if (params.command === "onboard") edits.push(...onboardDefaults(current));
  edits.push(
    { op: "set", path: "wizard.lastRunAt", value: params.now.toISOString() },
    { op: "set", path: "wizard.lastRunCommand", value: params.command },
    { op: "set", path: "wizard.lastRunMode", value: "local" },
  );
  return edits;
}
