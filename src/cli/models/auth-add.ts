// `pincer models auth add --agent ID --provider P [--profile-id ID] [--type api_key|token]`: reads a
// key or token from stdin and stores it in that agent's auth-profiles.json (mode 0600, agentDir 0700).
// Prints the profile id (stdout) and the file written (stderr), never the secret. `--profile` is the
// global state-dir flag, never the auth profile (OpenClaw's name for that is `--profile-id`).

import {
  type AuthCredential,
  closeMatches,
  listKnownProviders,
  normalizeProviderId,
} from "../../runtime/models/index.js";
import { selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
  printLine,
} from "../command-context.js";
import { loadForCli } from "../load.js";
import { setProfile, updateAgentStore } from "./auth-common.js";
import type { authAddOptions } from "./commands.js";

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

function buildCredential(params: {
  type: string;
  provider: string;
  secret: string;
}): AuthCredential {
  const { type, provider, secret } = params;
  return type === "token"
    ? { type: "token", provider, token: secret }
    : { type: "api_key", provider, key: secret };
}

/** The auth profile id for `--profile-id`: `<provider>:<name>` as given (its provider must be
 * `--provider`), a bare `<name>` prefixed with the provider, or `<provider>:default`. */
export function resolveProfileId(provider: string, raw: string | undefined): string {
  const given = raw?.trim() || "default";
  const colon = given.indexOf(":");
  const name = colon === -1 ? given : given.slice(colon + 1);
  if (colon !== -1 && normalizeProviderId(given.slice(0, colon)) !== provider) {
    throw new CliError(
      `--profile-id "${given}" is for provider "${given.slice(0, colon)}", not --provider ${provider}`,
      ExitCode.usage,
    );
  }
  if (!PROFILE_NAME.test(name)) {
    throw new CliError(
      `--profile-id "${given}": the name after "${provider}:" must be letters, digits and . _ @ + - (e.g. ${provider}:work)`,
      ExitCode.usage,
    );
  }
  return `${provider}:${name}`;
}

/** Stores a secret read from stdin as `<provider>:<profile>` in the chosen agent's auth store. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof authAddOptions>,
): Promise<number> {
  if (!opts.provider?.trim()) throw new CliError("--provider is required", ExitCode.usage);
  const type = opts.type ?? "api_key";
  if (type !== "api_key" && type !== "token") {
    throw new CliError(`--type must be api_key or token, not "${type}"`, ExitCode.usage);
  }
  const loaded = loadForCli(ctx, { requireValid: true });
  const provider = normalizeProviderId(opts.provider);
  const profileId = resolveProfileId(provider, opts.profileId);
  const known = listKnownProviders(loaded.config);
  if (!known.includes(provider)) {
    const near = closeMatches(provider, known);
    const hint = near.length
      ? `; did you mean ${near.join(" or ")}?`
      : " (add it under models.providers first)";
    throw new CliError(`unknown provider "${opts.provider}"${hint}`);
  }
  const { agentId, agent } = selectAgent(loaded, opts.agent);
  const secret = (await ctx.readStdin()).trim();
  if (!secret)
    throw new CliError(
      'no secret on stdin: pipe the key in, e.g. printf %s "$KEY" | pincer models auth add …',
    );
  if (/\s/.test(secret))
    throw new CliError("the secret on stdin contains whitespace; pass exactly one key or token");
  const path = await updateAgentStore(
    ctx,
    { agentDir: agent.agentDir, command: "models auth add" },
    (store) =>
      setProfile(store, { profileId, profile: buildCredential({ type, provider, secret }) }),
  );
  if (opts.json) {
    printJson(ctx, { agentId, profileId, type, path, stateDir: loaded.paths.stateDir });
  } else {
    printLine(ctx, profileId);
    ctx.stderr(`saved ${type} for agent ${agentId} in ${displayPath(path, loaded.paths.home)}\n`);
  }
  return 0;
}
