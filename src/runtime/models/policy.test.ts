import { describe, expect, it } from "vitest";
import { resolveStatePaths, validateConfig } from "../../config/index.js";
import { resolveRoster } from "../../config/resolve.js";
import {
  checkModelAgainstPolicy,
  checkModelPolicyConfig,
  resolveAgentModelPolicy,
} from "./policy.js";

const ref = (provider: string, model: string) => ({ provider, model });

describe("checkModelAgainstPolicy", () => {
  it("allows only what `allow` lists, with provider/* and globs", () => {
    const policy = {
      allow: ["azure-openai-responses/*", "openai/gpt-5*"],
      onMismatch: "fail" as const,
    };
    expect(checkModelAgainstPolicy(ref("azure-openai-responses", "gpt-5.5"), policy)).toEqual({
      ok: true,
    });
    expect(checkModelAgainstPolicy(ref("openai", "gpt-5.4"), policy)).toEqual({ ok: true });
    expect(checkModelAgainstPolicy(ref("google", "gemini-2.5-flash"), policy)).toEqual({
      ok: false,
      onMismatch: "fail",
      reason: expect.stringContaining("not in modelPolicy.allow"),
    });
  });

  it("forbid wins over allow; exact refs, provider/* and model globs match", () => {
    const policy = {
      allow: ["openai-codex/*", "google/*"],
      forbid: ["openai-codex/gpt-5.4", "google/*-flash"],
      onMismatch: "warn" as const,
    };
    expect(checkModelAgainstPolicy(ref("openai-codex", "gpt-5.4"), policy)).toEqual({
      ok: false,
      onMismatch: "warn",
      reason: "model openai-codex/gpt-5.4 is forbidden by modelPolicy",
    });
    expect(checkModelAgainstPolicy(ref("google", "gemini-2.5-flash"), policy)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('(matches "google/*-flash")'),
    });
    expect(checkModelAgainstPolicy(ref("google", "gemini-2.5-pro"), policy)).toEqual({ ok: true });
    expect(
      checkModelAgainstPolicy(ref("openrouter", "google/gemini-2.5-flash"), policy),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining("not in modelPolicy.allow"),
    });
  });

  it("no policy, or an empty allow list, restricts nothing; onMismatch defaults to fail", () => {
    expect(checkModelAgainstPolicy(ref("x", "y"), undefined)).toEqual({ ok: true });
    expect(checkModelAgainstPolicy(ref("x", "y"), { allow: [] })).toEqual({ ok: true });
    expect(checkModelAgainstPolicy(ref("x", "y"), { forbid: ["*"] })).toMatchObject({
      onMismatch: "fail",
    });
  });
});

// An "Azure-only + forbidden fallbacks" policy (allow azure-openai-responses/*, forbid the other
// providers' models), with an agent that breaks it.
const umbral = {
  agents: {
    defaults: {
      model: {
        primary: "azure-openai-responses/gpt-5.5",
        fallbacks: ["azure-openai-responses/gpt-5.4"],
      },
      modelPolicy: {
        allow: ["azure-openai-responses/*"],
        forbid: [
          "openai-codex/gpt-5.4",
          "google/gemini-2.5-flash",
          "google-vertex/gemini-2.5-flash",
        ],
        onMismatch: "fail" as const,
      },
    },
    list: [
      { id: "main" },
      {
        id: "rick-qa",
        model: {
          primary: "azure-openai-responses/gpt-5.5",
          fallbacks: ["azure-openai-responses/gpt-5.4", "google/gemini-2.5-flash"],
        },
      },
      {
        id: "lab",
        model: "anthropic/claude-sonnet-4-5",
        modelPolicy: { forbid: ["openai-codex/*"], onMismatch: "warn" as const },
      },
      {
        id: "loose",
        model: { primary: "openai-codex/gpt-5.4" },
        modelPolicy: { forbid: ["openai-codex/*"], onMismatch: "warn" as const },
      },
    ],
  },
};

describe("checkModelPolicyConfig", () => {
  it("reports each breaking primary/fallback at its path, error for fail and warning for warn", () => {
    const issues = checkModelPolicyConfig(umbral);
    expect(issues).toEqual([
      {
        severity: "error",
        path: "agents.list[1].model.fallbacks[1]",
        segments: ["agents", "list", 1, "model", "fallbacks", 1],
        message:
          'agent "rick-qa": fallback model google/gemini-2.5-flash breaks the model policy at ' +
          "agents.defaults.modelPolicy: model google/gemini-2.5-flash is forbidden by modelPolicy",
      },
      {
        severity: "warning",
        path: "agents.list[3].model.primary",
        segments: ["agents", "list", 3, "model", "primary"],
        message: expect.stringContaining("(onMismatch: warn)"),
      },
    ]);
  });

  it("a per-agent policy replaces the defaults' (lab may use anthropic)", () => {
    expect(resolveAgentModelPolicy(resolveRoster(umbral), "lab")?.path).toEqual([
      "agents",
      "list",
      2,
      "modelPolicy",
    ]);
    expect(resolveAgentModelPolicy(resolveRoster(umbral), "main")?.path).toEqual([
      "agents",
      "defaults",
      "modelPolicy",
    ]);
  });

  it("checks inherited defaults and the built-in default model too", () => {
    const issues = checkModelPolicyConfig({
      agents: {
        defaults: { modelPolicy: { allow: ["azure-openai-responses/*"], onMismatch: "fail" } },
      },
    });
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "error",
        path: "agents.defaults.model",
        message: expect.stringContaining("the built-in default model anthropic/claude-opus-4-6"),
      }),
    ]);
    const inherited = checkModelPolicyConfig({
      agents: {
        defaults: { model: { primary: "google/gemini-2.5-flash" } },
        list: [{ id: "a", modelPolicy: { forbid: ["google/*"], onMismatch: "fail" } }, { id: "b" }],
      },
    });
    expect(inherited.map((issue) => issue.path)).toEqual(["agents.defaults.model.primary"]);
    expect(inherited[0].message).toContain('agent "a"');
  });

  it("warns about policy entries that are not provider/model refs", () => {
    const issues = checkModelPolicyConfig({
      agents: {
        defaults: {
          model: "openai/gpt-5.4",
          modelPolicy: { forbid: ["flash"], onMismatch: "fail" },
        },
      },
    });
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "warning",
        path: "agents.defaults.modelPolicy.forbid[0]",
      }),
    ]);
  });

  it("never throws on malformed config (the schema pass reports it)", () => {
    const garbage = [
      { agents: { defaults: { modelPolicy: { allow: "x/*", forbid: 3 } } } },
      { agents: { list: [null, 7, { id: "a", model: { fallbacks: "nope" }, modelPolicy: [] }] } },
      { agents: { entries: { a: { model: 42, modelPolicy: { forbid: [1, "x/*"] } } } } },
      { agents: "weird" },
    ];
    for (const cfg of garbage) {
      expect(() => checkModelPolicyConfig(cfg as never)).not.toThrow();
    }
  });

  it("no policy anywhere: no issues", () => {
    expect(
      checkModelPolicyConfig({ agents: { defaults: { model: "google/gemini-2.5-flash" } } }),
    ).toEqual([]);
  });
});

describe("modelPolicy in the config schema", () => {
  const paths = resolveStatePaths({ env: { HOME: "/home/u" } });
  const validate = (modelPolicy: unknown) =>
    validateConfig(
      {
        agents: {
          defaults: { modelPolicy, model: "azure-openai-responses/gpt-5.5" },
          list: [{ id: "a", modelPolicy }],
        },
      },
      { paths },
    );

  it("accepts allow/forbid/onMismatch on agents.defaults and on an agent", () => {
    const result = validate({
      allow: ["azure-openai-responses/*"],
      forbid: ["google/*"],
      onMismatch: "fail",
    });
    expect(result.issues).toEqual([]);
  });

  it("requires onMismatch and rejects unknown keys and values", () => {
    const paths_ = validate({ allow: ["x/*"], onMismatch: "degrade", extra: 1 }).issues.map(
      (issue) => issue.path,
    );
    expect(paths_).toEqual(
      expect.arrayContaining([
        "agents.defaults.modelPolicy.onMismatch",
        "agents.list[0].modelPolicy.extra",
      ]),
    );
    expect(validate({ forbid: ["x/*"] }).valid).toBe(false);
  });

  it("reports a configured model that breaks a fail policy, at its path", () => {
    const result = validate({ allow: ["anthropic/*"], onMismatch: "fail" });
    expect(result.valid).toBe(false);
    expect(result.issues.map((issue) => issue.path)).toContain("agents.defaults.model");
  });
});
