import { describe, expect, it } from "vitest";
import { agentAction, findMapping, mappedAction, wakeAction } from "./actions.js";
import { resolveHookTarget } from "./policy.js";
import { resolveWebhookSettings } from "./settings.js";
import { renderTemplate, type TemplateContext } from "./template.js";

const ctx = (payload: unknown): TemplateContext => ({
  payload,
  headers: { "x-github-event": "pull_request" },
  query: new URLSearchParams("team=core"),
  path: "github",
  now: new Date(0),
});

describe("webhook settings", () => {
  it("is off unless enabled, needs a token, refuses / and applies defaults", () => {
    expect(resolveWebhookSettings(undefined, {})).toEqual({ status: "off" });
    expect(resolveWebhookSettings({ enabled: true }, {})).toEqual({
      status: "invalid",
      problem:
        "hooks.enabled is true but hooks.token is not set: set hooks.token (a dedicated secret)",
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a config ${VAR} reference.
    const unset = { enabled: true, token: "${HOOK_T}" };
    expect(resolveWebhookSettings(unset, {})).toEqual({
      status: "invalid",
      problem: "hooks.token: HOOK_T is not set",
    });
    expect(resolveWebhookSettings({ enabled: true, token: "t", path: "/" }, {}).status).toBe(
      "invalid",
    );
    const on = resolveWebhookSettings(
      { enabled: true, token: { source: "env", id: "T" }, path: "in/" },
      { T: "s" },
    );
    expect(on.status === "on" && on.settings).toMatchObject({
      basePath: "/in",
      token: "s",
      maxBodyBytes: 262144,
    });
  });
});

describe("webhook actions", () => {
  it("checks /wake and /agent bodies, naming the bad field", () => {
    expect(wakeAction({ text: " hi " })).toEqual({
      ok: true,
      action: { kind: "wake", text: "hi", mode: "now" },
    });
    expect(wakeAction({ text: "x", mode: "later" })).toEqual({
      ok: false,
      error: 'mode must be "now" or "next-heartbeat"',
    });
    expect(agentAction({})).toEqual({
      ok: false,
      error: "message is required (a non-empty string)",
    });
    expect(agentAction({ message: "m", deliver: "yes" })).toEqual({
      ok: false,
      error: "deliver must be true or false",
    });
    expect(agentAction({ message: "m", timeoutSeconds: -1 }).ok).toBe(false);
    expect(agentAction({ message: "m", to: 5 })).toEqual({
      ok: false,
      error: "to must be a string",
    });
    expect(
      agentAction({ message: "m", sessionKey: "hook:x", channel: "telegram", to: "1" }),
    ).toEqual({
      ok: true,
      action: {
        kind: "agent",
        message: "m",
        name: "Hook",
        wakeMode: "now",
        deliver: true,
        channel: "telegram",
        to: "1",
        sessionKey: "hook:x",
        sessionKeySource: "request",
        trusted: false,
      },
    });
  });

  it("renders templates from the payload, headers, query, path and now", () => {
    const payload = { messages: [{ subject: "Hello", tags: ["a"] }], n: 3 };
    expect(
      renderTemplate(
        "{{messages[0].subject}}|{{payload.n}}|{{headers.x-github-event}}|{{query.team}}|{{path}}|{{missing.x}}|{{messages[0].tags}}|{{now}}",
        ctx(payload),
      ),
    ).toBe('Hello|3|pull_request|core|github||["a"]|1970-01-01T00:00:00.000Z');
  });

  it("finds the first mapping by path or source and turns it into an action", () => {
    const mappings = [
      {
        id: "gh",
        match: { path: "github" },
        messageTemplate: "PR {{pr.title}}",
        sessionKey: "hook:gh:{{pr.id}}",
        name: "GitHub",
      },
      { match: { source: "gmail" }, action: "wake" as const, textTemplate: "Mail: {{subject}}" },
      { action: "agent" as const },
    ];
    expect(findMapping(mappings, "github", {})?.id).toBe("gh");
    expect(findMapping(mappings, "ingest", { source: "gmail" })?.action).toBe("wake");
    expect(findMapping(mappings, "other", {})).toBeUndefined();
    const agent = mappedAction(mappings[0]!, ctx({ pr: { title: "Fix", id: 7 } }));
    expect(agent).toMatchObject({
      ok: true,
      action: {
        kind: "agent",
        message: "PR Fix",
        name: "GitHub",
        sessionKey: "hook:gh:7",
        sessionKeySource: "mapping",
      },
    });
    expect(mappedAction(mappings[1]!, ctx({ subject: "Hi" }))).toEqual({
      ok: true,
      action: { kind: "wake", text: "Mail: Hi", mode: "now" },
    });
    expect(
      mappedAction({ id: "empty", match: { path: "e" }, messageTemplate: "{{nothing}}" }, ctx({})),
    ).toEqual({
      ok: false,
      error: "hooks mapping empty: message is required (a non-empty string)",
    });
  });
});

describe("webhook session and agent policy", () => {
  const roster = { agentIds: ["main", "ops"], defaultAgentId: "main" };
  const base = agentAction({ message: "m" });
  const action = base.ok && base.action.kind === "agent" ? base.action : undefined;
  if (!action) throw new Error("fixture");

  it("defaults to a fresh hook:<uuid> session, or hooks.defaultSessionKey", () => {
    expect(resolveHookTarget({ hooks: {}, roster, action, newId: () => "u1" })).toEqual({
      ok: true,
      agentId: "main",
      sessionKey: "agent:main:hook:u1",
      requestKey: "hook:u1",
    });
    expect(
      resolveHookTarget({ hooks: { defaultSessionKey: "hook:ingress" }, roster, action }),
    ).toMatchObject({
      sessionKey: "agent:main:hook:ingress",
    });
  });

  it("falls back to the default agent for an unknown id and enforces allowedAgentIds", () => {
    expect(
      resolveHookTarget({ hooks: {}, roster, action: { ...action, agentId: "ghost" } }),
    ).toMatchObject({ agentId: "main" });
    expect(resolveHookTarget({ hooks: { allowedAgentIds: ["ops"] }, roster, action })).toEqual({
      ok: false,
      error: 'agent "main" is not allowed by hooks.allowedAgentIds',
    });
    expect(
      resolveHookTarget({
        hooks: { allowedAgentIds: ["ops"] },
        roster,
        action: { ...action, agentId: "ops" },
      }),
    ).toMatchObject({ ok: true, agentId: "ops" });
    expect(resolveHookTarget({ hooks: { allowedAgentIds: ["*"] }, roster, action }).ok).toBe(true);
    expect(
      resolveHookTarget({
        hooks: { allowedAgentIds: [] },
        roster,
        action: { ...action, agentId: "ops" },
      }).ok,
    ).toBe(false);
  });

  it("accepts a caller's sessionKey only when allowed and prefixed, and never one of another agent", () => {
    const asked = { ...action, sessionKey: "hook:mine", sessionKeySource: "request" as const };
    expect(resolveHookTarget({ hooks: {}, roster, action: asked })).toMatchObject({
      ok: false,
      error: expect.stringContaining("hooks.allowRequestSessionKey: true"),
    });
    expect(
      resolveHookTarget({ hooks: { allowRequestSessionKey: true }, roster, action: asked }),
    ).toMatchObject({
      sessionKey: "agent:main:hook:mine",
    });
    expect(
      resolveHookTarget({
        hooks: { allowRequestSessionKey: true, allowedSessionKeyPrefixes: ["hook:gh:"] },
        roster,
        action: asked,
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringContaining("allowedSessionKeyPrefixes (hook:gh:)"),
    });
    const mapped = { ...action, sessionKey: "hook:gh:1", sessionKeySource: "mapping" as const };
    expect(
      resolveHookTarget({
        hooks: { allowedSessionKeyPrefixes: ["hook:gh:"] },
        roster,
        action: mapped,
      }).ok,
    ).toBe(true);
    const foreign = { ...asked, sessionKey: "agent:ops:main" };
    expect(
      resolveHookTarget({ hooks: { allowRequestSessionKey: true }, roster, action: foreign }),
    ).toEqual({
      ok: false,
      error: 'sessionKey "agent:ops:main" belongs to agent "ops", not "main"',
    });
  });
});
