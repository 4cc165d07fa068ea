// What a webhook request asks for, checked: `POST <path>/wake` {text, mode} → a wake action,
// `POST <path>/agent` {message, name, agentId, sessionKey, wakeMode, deliver, channel, to, model,
// thinking, timeoutSeconds} → an agent action, and `POST <path>/<name>` through the first
// `hooks.mappings` entry whose `match.path` / `match.source` fits (templates filled from the
// request). Bad input is an error naming the field (answered 400); nothing runs.
import type { HookMappingConfig } from "../../protocol/config/index.js";
import { renderTemplate, type TemplateContext } from "./template.js";

/** When the heartbeat reads a wake: right away (default) or at its next beat. */
export type WakeMode = "now" | "next-heartbeat";

/** A system event for the main session (and maybe a heartbeat now). */
export interface WakeAction {
  kind: "wake";
  text: string;
  mode: WakeMode;
}

/** A turn in a hook session. */
export interface AgentAction {
  kind: "agent";
  message: string;
  /** Shown in the summary line the main session gets (`Hook <name>: …`). */
  name: string;
  agentId?: string;
  sessionKey?: string;
  /** Where the session key came from: the caller (policy-checked) or a mapping. */
  sessionKeySource?: "request" | "mapping";
  wakeMode: WakeMode;
  deliver: boolean;
  channel: string;
  to?: string;
  model?: string;
  thinking?: string;
  timeoutSeconds?: number;
  /** False: the message is wrapped as untrusted external content (the default). */
  trusted: boolean;
}

/** A checked request, or the 400 message. */
export type ActionResult =
  | { ok: true; action: WakeAction | AgentAction }
  | { ok: false; error: string };

type Body = Record<string, unknown>;

function optionalString(body: Body, key: string): string | undefined | { error: string } {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return { error: `${key} must be a string` };
  return value.trim() || undefined;
}

function wakeModeOf(value: unknown, key: string): WakeMode | { error: string } {
  if (value === undefined || value === null) return "now";
  if (value === "now" || value === "next-heartbeat") return value;
  return { error: `${key} must be "now" or "next-heartbeat"` };
}

/** Checks a `/wake` body. */
export function wakeAction(body: Body): ActionResult {
  const text = typeof body.text === "string" ? body.text.trim() : "";
  if (!text) return { ok: false, error: "text is required (a non-empty string)" };
  const mode = wakeModeOf(body.mode, "mode");
  if (typeof mode !== "string") return { ok: false, error: mode.error };
  return { ok: true, action: { kind: "wake", text, mode } };
}

/** Checks an `/agent` body (also the fields a mapping produced). */
export function agentAction(body: Body, trusted = false): ActionResult {
  const message = typeof body.message === "string" ? body.message.trim() : "";
  if (!message) return { ok: false, error: "message is required (a non-empty string)" };
  const strings: Record<string, string | undefined> = {};
  for (const key of ["name", "agentId", "sessionKey", "channel", "to", "model", "thinking"]) {
    const value = optionalString(body, key);
    if (typeof value === "object") return { ok: false, error: value.error };
    strings[key] = value;
  }
  const wakeMode = wakeModeOf(body.wakeMode, "wakeMode");
  if (typeof wakeMode !== "string") return { ok: false, error: wakeMode.error };
  if (body.deliver !== undefined && typeof body.deliver !== "boolean") {
    return { ok: false, error: "deliver must be true or false" };
  }
  const timeout = body.timeoutSeconds;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0)
  ) {
    return { ok: false, error: "timeoutSeconds must be a number of seconds (0 = no timeout)" };
  }
  const action: AgentAction = {
    kind: "agent",
    message,
    name: strings.name ?? "Hook",
    wakeMode,
    deliver: body.deliver !== false,
    channel: strings.channel ?? "last",
    trusted,
  };
  for (const key of ["agentId", "sessionKey", "to", "model", "thinking"] as const) {
    if (strings[key] !== undefined) action[key] = strings[key];
  }
  if (action.sessionKey) action.sessionKeySource = "request";
  if (typeof timeout === "number") action.timeoutSeconds = timeout;
  return { ok: true, action };
}

/** The first mapping for a sub-path and payload, if any. */
export function findMapping(
  mappings: readonly HookMappingConfig[],
  subPath: string,
  payload: Body,
): HookMappingConfig | undefined {
  return mappings.find((mapping) => {
    const match = mapping.match ?? {};
    const path = match.path?.replace(/^\/+|\/+$/g, "");
    if (path !== undefined && path !== subPath) return false;
    if (match.source !== undefined && payload.source !== match.source) return false;
    return path !== undefined || match.source !== undefined;
  });
}

/** Turns a mapping and its request into an action (templates filled, then checked as `/agent`). */
export function mappedAction(mapping: HookMappingConfig, ctx: TemplateContext): ActionResult {
  const render = (template: string | undefined) =>
    template === undefined ? undefined : renderTemplate(template, ctx);
  const payload = (ctx.payload ?? {}) as Body;
  const label = mapping.id ?? mapping.match?.path ?? mapping.match?.source ?? "mapping";
  if (mapping.action === "wake") {
    const text =
      render(mapping.textTemplate) ?? (typeof payload.text === "string" ? payload.text : "");
    const checked = wakeAction({ text, mode: mapping.wakeMode });
    return checked.ok ? checked : { ok: false, error: `hooks mapping ${label}: ${checked.error}` };
  }
  const message = render(mapping.messageTemplate) ?? payload.message;
  const fields: Body = {
    message,
    name: mapping.name,
    agentId: mapping.agentId,
    sessionKey: render(mapping.sessionKey),
    wakeMode: mapping.wakeMode,
    deliver: mapping.deliver,
    channel: mapping.channel,
    to: render(mapping.to),
    model: mapping.model,
    thinking: mapping.thinking,
    timeoutSeconds: mapping.timeoutSeconds,
  };
  const checked = agentAction(fields, mapping.allowUnsafeExternalContent === true);
  if (!checked.ok) return { ok: false, error: `hooks mapping ${label}: ${checked.error}` };
  if (checked.action.kind === "agent" && checked.action.sessionKey) {
    checked.action.sessionKeySource = "mapping";
  }
  return checked;
}
