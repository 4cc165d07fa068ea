// `pincer models auth setup-token --provider anthropic [--agent ID] [--profile-id ID]`: runs Claude
// Code's own `claude setup-token` (it prints a long-lived subscription token), then reads the token
// pasted on stdin and stores it like paste-token. Without the `claude` CLI on PATH it explains how
// to get a token elsewhere and paste it.
import { spawn } from "node:child_process";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, displayPath, ExitCode } from "../command-context.js";
import { resolveProfileId } from "./auth-add.js";
import { checkProvider, openAuthAgent } from "./auth-common.js";
import { parseExpiresIn, saveTokenProfile } from "./auth-paste-token.js";
import type { setupTokenOptions } from "./commands.js";
import { createLineSource } from "./line-source.js";

/** The provider CLI that mints setup tokens, per provider. */
const SETUP_CLI: Record<string, { command: string; args: string[]; install: string }> = {
  anthropic: {
    command: "claude",
    args: ["setup-token"],
    install: "install Claude Code (npm i -g @anthropic-ai/claude-code)",
  },
};

function runInherited(
  ctx: CliContext,
  cli: { command: string; args: string[] },
): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn(cli.command, cli.args, { stdio: "inherit", env: ctx.env });
    child.once("error", (err: NodeJS.ErrnoException) =>
      resolve(err.code === "ENOENT" ? "missing" : `could not run ${cli.command}: ${err.message}`),
    );
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** Runs the provider's token CLI, then stores the token pasted afterwards. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof setupTokenOptions>,
): Promise<number> {
  const expiresIn = parseExpiresIn(opts.expiresIn);
  const { loaded, agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const provider = checkProvider(loaded, opts.provider ?? "anthropic");
  const cli = SETUP_CLI[provider];
  if (!cli) {
    throw new CliError(
      `setup-token is for anthropic (Claude subscriptions); for ${provider} use: pincer models auth login or paste-token --provider ${provider}`,
      ExitCode.usage,
    );
  }
  const profileId = resolveProfileId(provider, opts.profileId);
  if (!ctx.terminal) {
    throw new CliError(
      `setup-token is interactive; run \`${cli.command} ${cli.args.join(" ")}\` yourself and pipe its token into: pincer models auth paste-token --provider ${provider}`,
    );
  }
  const outcome = await runInherited(ctx, cli);
  if (outcome === "missing") {
    throw new CliError(
      `\`${cli.command}\` is not on PATH: ${cli.install} and run \`${cli.command} ${cli.args.join(" ")}\` (here or on any machine), then: pincer models auth paste-token --provider ${provider}`,
    );
  }
  if (outcome !== 0)
    throw new CliError(`\`${cli.command} ${cli.args.join(" ")}\` failed (${outcome})`);
  const lines = createLineSource(ctx);
  const token = (await lines.next("Paste the token it printed: "))?.trim();
  lines.close();
  if (!token || /\s/.test(token))
    throw new CliError("no token pasted (one token, no spaces); nothing saved");
  const { path } = await saveTokenProfile({
    ctx,
    agentDir: agent.agentDir,
    provider,
    profileId,
    token,
    expiresIn,
    command: "models auth setup-token",
  });
  ctx.stdout(`${profileId}\n`);
  ctx.stderr(`saved token for agent ${agentId} in ${displayPath(path, loaded.paths.home)}\n`);
  return 0;
}
