// `pincer models auth paste-token --provider P [--agent ID] [--profile-id ID] [--expires-in 365d]`:
// a token read from stdin (an Anthropic setup-token, a Copilot token, …) stored as a `token`
// profile, expiring when `--expires-in` says. Prints the profile id, never the token.
import { parseDurationText } from "../../cron/schedule.js";
import type { AuthCredential } from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, displayPath, ExitCode, printJson } from "../command-context.js";
import { resolveProfileId } from "./auth-add.js";
import { checkProvider, openAuthAgent, setProfile, updateAgentStore } from "./auth-common.js";
import type { pasteTokenOptions } from "./commands.js";

/** `--expires-in` as milliseconds from now; undefined when not given. */
export function parseExpiresIn(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseDurationText(raw);
  if (!ms || ms <= 0) {
    throw new CliError(
      `--expires-in "${raw}" is not a duration (e.g. 365d, 12h, 30m, 2w)`,
      ExitCode.usage,
    );
  }
  return ms;
}

/** Reads one token from stdin; empty or several words is an error naming the command. */
export async function readOneToken(ctx: CliContext, command: string): Promise<string> {
  const token = (await ctx.readStdin()).trim();
  if (!token) {
    throw new CliError(
      `no token on stdin: pipe it in, e.g. printf %s "$TOKEN" | pincer ${command}`,
    );
  }
  if (/\s/.test(token))
    throw new CliError("the token on stdin contains whitespace; pass exactly one token");
  return token;
}

/** Inputs of {@link saveTokenProfile}. */
export interface SaveTokenParams {
  ctx: CliContext;
  agentDir: string;
  provider: string;
  profileId: string;
  token: string;
  /** Milliseconds from now; absent: the token never expires. */
  expiresIn: number | undefined;
  /** The command, named in the credential lock's holder. */
  command: string;
}

/** Stores `token` as a `token` profile under the credential lock; returns the file and expiry. */
export async function saveTokenProfile(
  params: SaveTokenParams,
): Promise<{ path: string; expires?: number }> {
  const { provider, token, profileId } = params;
  const expires = params.expiresIn === undefined ? undefined : Date.now() + params.expiresIn;
  const profile: AuthCredential = {
    type: "token",
    provider,
    token,
    ...(expires !== undefined ? { expires } : {}),
  };
  const path = await updateAgentStore(
    params.ctx,
    { agentDir: params.agentDir, command: params.command },
    (store) => setProfile(store, { profileId, profile }),
  );
  return { path, ...(expires !== undefined ? { expires } : {}) };
}

/** Stores a pasted token as `<provider>:<name>` in the agent's auth-profiles.json. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof pasteTokenOptions>,
): Promise<number> {
  const expiresIn = parseExpiresIn(opts.expiresIn);
  const { loaded, agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const provider = checkProvider(loaded, opts.provider);
  const profileId = resolveProfileId(provider, opts.profileId);
  const token = await readOneToken(ctx, `models auth paste-token --provider ${provider}`);
  const { path, expires } = await saveTokenProfile({
    ctx,
    agentDir: agent.agentDir,
    provider,
    profileId,
    token,
    expiresIn,
    command: "models auth paste-token",
  });
  if (opts.json) {
    printJson(ctx, { agentId, profileId, type: "token", path, ...(expires ? { expires } : {}) });
  } else {
    ctx.stdout(`${profileId}\n`);
    const until = expires ? ` (expires ${new Date(expires).toISOString()})` : "";
    ctx.stderr(
      `saved token for agent ${agentId} in ${displayPath(path, loaded.paths.home)}${until}\n`,
    );
  }
  return 0;
}
