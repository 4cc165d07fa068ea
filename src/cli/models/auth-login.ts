// `pincer models auth login --provider openai-codex|anthropic|github-copilot [--agent ID]
// [--profile-id ID] [--no-browser] [--timeout 5m]`: pi-ai's OAuth flow for the provider. The URL
// is printed (and opened in a browser on a desktop terminal); the provider's callback server on
// 127.0.0.1 (1455 for Codex) catches the redirect, or the user pastes the redirect URL on stdin
// (remote and headless hosts). The credentials land in the agent's auth-profiles.json; never printed.

import { parseDurationText } from "../../cron/schedule.js";
import {
  LOGIN_TIMEOUT_MS,
  listOAuthLoginProviders,
  loginOAuthProfile,
} from "../../runtime/models/auth-login.js";
import { normalizeProviderId } from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, displayPath, ExitCode, printJson } from "../command-context.js";
import { openInBrowser, shouldOpenBrowser } from "../dashboard/dashboard.js";
import { resolveProfileId } from "./auth-add.js";
import { openAuthAgent } from "./auth-common.js";
import type { authLoginOptions } from "./commands.js";
import { createLineSource, nextNonEmptyLine } from "./line-source.js";

function loginTimeout(raw: string | undefined): number {
  if (raw === undefined) return LOGIN_TIMEOUT_MS;
  const ms = parseDurationText(raw);
  if (!ms || ms <= 0)
    throw new CliError(`--timeout "${raw}" is not a duration like 90s or 5m`, ExitCode.usage);
  return ms;
}

/** Logs the agent in to a subscription provider and stores the OAuth profile. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof authLoginOptions>,
): Promise<number> {
  if (!opts.provider?.trim()) throw new CliError("--provider is required", ExitCode.usage);
  const timeoutMs = loginTimeout(opts.timeout);
  const provider = normalizeProviderId(opts.provider);
  const flows = await listOAuthLoginProviders();
  if (!flows.includes(provider)) {
    throw new CliError(
      `provider "${opts.provider}" has no login flow (logins: ${flows.join(", ")}); for an API key or token use: pincer models auth add or paste-token --provider ${provider}`,
    );
  }
  const profileId =
    opts.profileId === undefined ? undefined : resolveProfileId(provider, opts.profileId);
  const { loaded, agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const lines = createLineSource(ctx);
  const browser = shouldOpenBrowser(ctx, opts.browser);
  try {
    const result = await loginOAuthProfile({
      agentDir: agent.agentDir,
      provider,
      ...(profileId ? { profileId } : {}),
      timeoutMs,
      pid: ctx.pid,
      io: {
        showAuthUrl: ({ url, instructions }) => {
          ctx.stderr(`Open this URL in a browser to log in to ${provider}:\n`);
          ctx.stdout(`${url}\n`);
          if (instructions) ctx.stderr(`${instructions}\n`);
          ctx.stderr(
            "On another machine? Log in there, then paste the URL the browser was sent to (or the code) here.\n",
          );
          if (browser) {
            void openInBrowser(url, ctx.platform).then((error) => {
              if (error) ctx.stderr(`(${error}; open the URL yourself)\n`);
            });
          }
        },
        ask: async ({ message, allowEmpty }) => {
          const line = allowEmpty
            ? await lines.next(`${message} `)
            : await nextNonEmptyLine(lines, `${message} `);
          if (line === undefined) throw new Error(`no answer on stdin to "${message}"`);
          return line.trim();
        },
        pastedRedirect: () => nextNonEmptyLine(lines, "Redirect URL: "),
        progress: (message) => ctx.stderr(`${message}\n`),
      },
    });
    if (!result.ok) throw new CliError(result.error);
    if (opts.json) {
      printJson(ctx, { agentId, provider, ...result, stateDir: loaded.paths.stateDir });
    } else {
      ctx.stdout(`${result.profileId}\n`);
      const until = new Date(result.expires).toISOString();
      ctx.stderr(
        `logged in: ${result.profileId} for agent ${agentId} in ${displayPath(result.path, loaded.paths.home)} (access token until ${until}, refreshed automatically)\n`,
      );
    }
    return 0;
  } finally {
    lines.close();
  }
}
