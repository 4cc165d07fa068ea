// `pincer models auth add --agent ID --provider P [--profile NAME] [--type api_key|token]`: reads a
// key or token from stdin and stores it in that agent's auth-profiles.json (mode 0600, agentDir 0700).
// Prints the profile id, never the secret.
import {
  type AuthCredential,
  closeMatches,
  listKnownProviders,
  normalizeProviderId,
  setAuthProfile,
} from "../runtime/models/index.js";
import { selectAgent } from "./agent-select.js";
import {
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
  printLine,
} from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

/** Options of `pincer models auth add`. */
export interface ModelsAuthAddOptions {
  agent?: string;
  provider?: string;
  profile?: string;
  type?: string;
  json?: boolean;
}

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

/** Stores a secret read from stdin as `<provider>:<profile>` in the chosen agent's auth store. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<ModelsAuthAddOptions>,
): Promise<number> {
  if (!opts.provider?.trim()) throw new CliError("--provider is required", ExitCode.usage);
  const type = opts.type ?? "api_key";
  if (type !== "api_key" && type !== "token") {
    throw new CliError(`--type must be api_key or token, not "${type}"`, ExitCode.usage);
  }
  const name = opts.profile ?? "default";
  if (!PROFILE_NAME.test(name)) {
    throw new CliError(
      `--profile "${name}" must be letters, digits and . _ @ + - (e.g. work)`,
      ExitCode.usage,
    );
  }
  const loaded = loadForCli(ctx, { requireValid: true });
  const provider = normalizeProviderId(opts.provider);
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
  const profileId = `${provider}:${name}`;
  const path = setAuthProfile({
    agentDir: agent.agentDir,
    profileId,
    profile: buildCredential({ type, provider, secret }),
  });
  if (opts.json) {
    printJson(ctx, { agentId, profileId, type, path });
  } else {
    printLine(ctx, profileId);
    ctx.stderr(`saved ${type} for agent ${agentId} in ${displayPath(path, loaded.paths.home)}\n`);
  }
  return 0;
}
