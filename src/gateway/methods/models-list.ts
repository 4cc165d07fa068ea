// `models.list [{agentId?, sessionKey?}]`: the model catalogue, and per model the credential a run
// of that agent would use (profile id, env var or config; never the secret): the profile order
// (auth-profiles.json `order`, else `auth.order`), and the session's `/model …@<profile>` pin
// when `sessionKey` is given. `auth` is absent for a provider the agent has no credential for.
import { lookupAgent } from "../../config/resolve.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { resolveTarget } from "./shared.js";

type ModelsListDeps = Pick<MethodDeps, "live" | "env" | "config" | "stores" | "now">;

async function modelsList(call: CallOf<"models.list">, deps: ModelsListDeps) {
  // Lazy: the model catalog pulls in pi-ai, which the gateway does not load at start-up.
  const { listModels, resolveCredentials } = await import("../../runtime/models/index.js");
  const cfg = deps.config();
  const target = resolveTarget(cfg, call.params);
  if ("error" in target) return target.error;
  const agentDir = lookupAgent(cfg, target.agentId).agentDir;
  const pinned = call.params.sessionKey
    ? deps.stores.forAgent(target.agentId).get(target.sessionKey)?.authProfileOverride
    : undefined;
  const now = deps.now();
  const byProvider = new Map<string, ReturnType<typeof resolveCredentials>>();
  const authFor = (provider: string) => {
    let creds = byProvider.get(provider);
    if (!creds) {
      creds = resolveCredentials({
        agentDir,
        provider,
        cfg: cfg.config,
        env: deps.env,
        now,
        ...(typeof pinned === "string" && pinned ? { preferProfileId: pinned } : {}),
      });
      byProvider.set(provider, creds);
    }
    const first = creds.candidates[0];
    if (!first) return undefined;
    return {
      credential: first.id,
      source: first.source,
      kind: first.kind,
      ...(first.profileId ? { profileId: first.profileId } : {}),
      ...(creds.preferred?.used && creds.preferred.profileId === first.profileId
        ? { pinned: true }
        : {}),
      ...(first.needsRefresh ? { needsRefresh: true } : {}),
    };
  };
  const models = listModels({ cfg: deps.live.config, env: deps.env });
  return ok({
    agentId: target.agentId,
    models: models.map((model) => {
      const auth = authFor(model.provider);
      return {
        id: model.id,
        name: model.name,
        provider: model.provider,
        contextWindow: model.contextWindow,
        reasoning: model.reasoning,
        input: model.input,
        ...(auth ? { auth } : {}),
      };
    }),
  });
}

/** The `models.list` method. */
export const modelsListMethod = defineMethod({
  name: "models.list",
  scope: "operator.read",
  uses: ["live", "env", "config", "stores", "now"],
  handler: modelsList,
});
