// The commands that only read: /help, /commands, /whoami, /status, /context. Answered from the
// registry, the session entry and the config; no model call.
import { formatContextReport } from "../../agents/context-report-format.js";
import { effectiveElevatedLevel } from "../../runtime/approvals/index.js";
import { queueOverrideFromSession, resolveQueueSettings } from "../../runtime/lanes/index.js";
import { resolveDisplayLevels } from "../../runtime/output/index.js";
import { checkSessionReset, hostTimeZone } from "../../sessions/index.js";
import { commandHelpLine } from "./registry.js";
import { formatStatus } from "./status-text.js";
import type { CommandDefinition, CommandHost, CommandRequest } from "./types.js";

/** Longest `/context` reply: a chat message, not a file (`pincer context` has the whole report). */
export const CONTEXT_REPLY_MAX_CHARS = 3500;

function help(request: CommandRequest, host: CommandHost): string {
  const names = host.visible(request).map((definition) => `/${definition.name}`);
  return [
    "Commands are answered here, without the model:",
    names.join(" "),
    "",
    "/commands lists them with their arguments.",
  ].join("\n");
}

function commandList(request: CommandRequest, host: CommandHost): string {
  return ["Chat commands:", ...host.visible(request).map(commandHelpLine)].join("\n");
}

function whoami(request: CommandRequest): string {
  const lines = [`Channel: ${request.channel}`, `Your id: ${request.senderId}`];
  if (request.senderUsername) lines.push(`Username: @${request.senderUsername}`);
  if (request.accountId) lines.push(`Account: ${request.accountId}`);
  if (request.chatType === "group" && request.peerId) lines.push(`Chat id: ${request.peerId}`);
  return lines.join("\n");
}

async function status(request: CommandRequest, host: CommandHost): Promise<string> {
  const deps = await host.runtimeDeps();
  const entry = deps.stores.forAgent(request.agentId).get(request.sessionKey);
  const models = await import("../../runtime/models/index.js");
  const configured = models.resolveAgentModelChain({ cfg: deps.config, agentId: request.agentId });
  // The context window is the one of the model the next run uses (the session's choice, if valid).
  const { resolveSessionModelChain } = await import("../../runtime/models/session-model.js");
  const scope = { cfg: deps.config, agentId: request.agentId, env: deps.env };
  const session = resolveSessionModelChain(scope, entry);
  const ref = configured.primary;
  const used = session.ok ? session.chain.primary : ref;
  const resolved = used
    ? models.resolveModel({ cfg: deps.config.config, ref: used, env: deps.env })
    : undefined;
  const queue = resolveQueueSettings({
    cfg: deps.config.config,
    channel: request.channel,
    sessionOverride: entry ? queueOverrideFromSession(entry as Record<string, unknown>) : undefined,
  });
  const usage = await import("../../runtime/usage/index.js");
  const budget = usage.agentBudgetOf(deps.config, request.agentId);
  const budgetText = budget && deps.usage ? await usage.budgetLine(deps.usage, budget) : undefined;
  return formatStatus({
    ...(budgetText ? { budget: budgetText } : {}),
    agentId: request.agentId,
    sessionKey: request.sessionKey,
    entry,
    ...(ref ? { configuredModel: models.formatModelRef(ref) } : {}),
    ...(resolved?.ok ? { contextWindow: resolved.model.contextWindow } : {}),
    queueMode: queue.mode,
    elevated: effectiveElevatedLevel({
      cfg: deps.config,
      agentId: request.agentId,
      sessionLevel: entry?.elevatedLevel,
    }),
    display: resolveDisplayLevels({ entry, config: deps.config.config }),
    reset: checkSessionReset({
      session: deps.config.config.session,
      sessionKey: request.sessionKey,
      entry: entry ?? { updatedAt: host.now(), sessionStartedAt: host.now() },
      now: host.now(),
      timeZone: hostTimeZone(),
    }),
    now: host.now(),
  });
}

async function context(request: CommandRequest, host: CommandHost): Promise<string> {
  const mode = request.args.toLowerCase() || "list";
  if (mode !== "list" && mode !== "detail" && mode !== "json") {
    return "Usage: /context list | /context detail | /context json";
  }
  const report = await host.contextReport(request);
  // `json` is the report `pincer context --json` prints.
  const text =
    mode === "json"
      ? JSON.stringify(report, null, 2)
      : formatContextReport(report, { detail: mode === "detail" });
  // A code block: the report's columns stay aligned in chat clients that render Markdown.
  if (text.length <= CONTEXT_REPLY_MAX_CHARS) return `\`\`\`\n${text}\n\`\`\``;
  const cut = text.slice(0, CONTEXT_REPLY_MAX_CHARS);
  const shown = cut.slice(0, cut.lastIndexOf("\n"));
  const whole = mode === "json" ? "pincer context --json" : "pincer context --detail";
  return `\`\`\`\n${shown}\n\`\`\`\n… (cut: \`${whole}\` shows all)`;
}

/** The read-only command definitions. */
export const infoCommands: CommandDefinition[] = [
  {
    name: "help",
    aliases: [],
    description: "what you can use here",
    changesState: false,
    run: (request, host) => ({ text: help(request, host) }),
  },
  {
    name: "commands",
    aliases: [],
    description: "every command with its arguments",
    changesState: false,
    run: (request, host) => ({ text: commandList(request, host) }),
  },
  {
    name: "whoami",
    aliases: ["id"],
    description: "your id as allowlists and bindings see it",
    changesState: false,
    run: (request) => ({ text: whoami(request) }),
  },
  {
    name: "status",
    aliases: [],
    description: "agent, model, session, context, tokens, levels, time",
    changesState: false,
    run: async (request, host) => ({ text: await status(request, host) }),
  },
  {
    name: "context",
    aliases: [],
    args: "[list|detail|json]",
    description: "what the model is sent and how big each part is",
    changesState: false,
    run: async (request, host) => ({ text: await context(request, host) }),
  },
];
