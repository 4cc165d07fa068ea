// The chat command service every surface uses (channels and chat.send): recognizes a command at the
// start of a message (unless `commands.text` is off), checks who may use it, runs its handler and
// emits its `command` event. Not a command (plain text, an unknown `/word`, another bot's
// command): undefined, and the message goes to the model as before.
import type { ContextReport } from "../../agents/context-report.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { ChannelCommandMenu, Logger } from "../types.js";
import { type ChannelAuthorizer, decideCommandAccess } from "./access.js";
import { approvalCommands } from "./approval-commands.js";
import { elevatedCommands } from "./elevated-command.js";
import type { CommandEvents } from "./events.js";
import { infoCommands } from "./info-commands.js";
import { modeCommands } from "./mode-commands.js";
import { overrideCommands } from "./override-commands.js";
import { parseCommand } from "./parse.js";
import { type CommandRegistry, createCommandRegistry } from "./registry.js";
import { restartCommands } from "./restart-command.js";
import { sessionCommands } from "./session-commands.js";
import type { CommandChatType, CommandHost, CommandRequest } from "./types.js";

/** The commands that need no runtime change, in help order. */
export const BUILTIN_COMMANDS = [
  ...infoCommands,
  ...sessionCommands,
  ...overrideCommands,
  ...modeCommands,
  ...elevatedCommands,
  ...approvalCommands,
  ...restartCommands,
];

/** What the gateway gives the service. */
export type ChatCommandsDeps = Omit<CommandHost, "visible" | "contextReport"> & {
  events: CommandEvents;
  log: Logger;
  registry?: CommandRegistry;
  /** Internal hooks of a command (`command:new`, …), run before it acts; their messages are added
   *  to the reply. */
  commandHooks?: (request: CommandRequest) => Promise<readonly string[]>;
};

/** One message that may be a command, with its session and sender. */
export interface CommandInput {
  text: string;
  /** The config current now (its `commands` section). */
  config: OpenClawConfig;
  /** This account's platform username (`/cmd@name` suffixes, a leading @mention). */
  selfUsername?: string;
  agentId: string;
  sessionKey: string;
  channel: string;
  accountId?: string;
  chatType: CommandChatType;
  sender: { id: string; username?: string };
  peerId?: string;
  /** The conversation's channel allowlists (none for an operator). */
  authorizers: readonly ChannelAuthorizer[];
  /** An operator's connection scopes (chat.send). */
  scopes?: readonly string[];
}

/** A handled command: its reply, and whether it was refused. */
export interface CommandAnswer {
  name: string;
  text: string;
  refused: boolean;
  /** To run once the reply is delivered and recorded (see {@link CommandOutcome.afterReply}). */
  afterReply?: () => void;
}

/** The service. */
export interface ChatCommands {
  /** Answers a command, or undefined when the text is not one (it goes to the model). */
  handle(input: CommandInput): Promise<CommandAnswer | undefined>;
  /** Whether `handle` would answer this text (without running anything). */
  recognizes(input: Pick<CommandInput, "text" | "config" | "selfUsername">): boolean;
  /** The native command menu for `config`: every command, `commands.native` (default auto); with
   *  `commands.text` off no command is answered, so the menu is cleared. */
  menu(config: OpenClawConfig): ChannelCommandMenu;
}

async function buildContextReport(
  host: Pick<CommandHost, "runtimeDeps">,
  target: { agentId: string; sessionKey: string },
): Promise<ContextReport> {
  const deps = await host.runtimeDeps();
  const { findAgent } = await import("../../config/index.js");
  const builder = await import("../../runtime/context-report/session-report.js");
  const agent = findAgent(deps.config, target.agentId);
  if (!agent) throw new Error(`unknown agent ${target.agentId}`);
  const store = deps.stores.forAgent(target.agentId);
  await store.readTranscriptAsync(target.sessionKey); // loaded (PostgreSQL) before the sync read below
  const { report } = await builder.buildSessionContextReport({
    cfg: deps.config,
    agent,
    paths: deps.paths,
    env: deps.env,
    sessionKey: target.sessionKey,
    session: builder.readSessionContext(store, target.sessionKey),
    ...(deps.bundledSkillsDir ? { bundledSkillsDir: deps.bundledSkillsDir } : {}),
  });
  return report;
}

/** Creates the service over the gateway's deps. */
export function createChatCommands(deps: ChatCommandsDeps): ChatCommands {
  const registry = deps.registry ?? createCommandRegistry(BUILTIN_COMMANDS);
  const find = (input: Pick<CommandInput, "text" | "config" | "selfUsername">) => {
    if (input.config.commands?.text === false) return undefined;
    const parsed = parseCommand(
      input.text,
      input.selfUsername ? { selfUsername: input.selfUsername } : {},
    );
    const definition = parsed ? registry.resolve(parsed.name) : undefined;
    if (!parsed || !definition || definition.isDirective?.(parsed.args)) return undefined;
    return { parsed, definition };
  };
  return {
    recognizes: (input) => find(input) !== undefined,
    menu: (config) => ({
      native: config.commands?.text === false ? false : (config.commands?.native ?? "auto"),
      commands: registry.list().map(({ name, description }) => ({ name, description })),
    }),
    async handle(input) {
      const found = find(input);
      if (!found) return undefined;
      const { parsed, definition } = found;
      const access = (def: typeof definition) =>
        decideCommandAccess({
          commands: input.config.commands,
          ...(input.config.accessGroups ? { accessGroups: input.config.accessGroups } : {}),
          channel: input.channel,
          chatType: input.chatType,
          sender: input.sender,
          authorizers: input.authorizers,
          definition: def,
        });
      const fields = {
        command: definition.name,
        channel: input.channel,
        sessionKey: input.sessionKey,
        senderId: input.sender.id,
      };
      const verdict = access(definition);
      if (!verdict.allowed) {
        deps.log.info(fields, "chat command refused");
        return { name: definition.name, text: verdict.reason, refused: true };
      }
      const request: CommandRequest = {
        name: definition.name,
        typed: parsed.name,
        args: parsed.args,
        agentId: input.agentId,
        sessionKey: input.sessionKey,
        channel: input.channel,
        chatType: input.chatType,
        senderId: input.sender.id,
        ...(input.sender.username ? { senderUsername: input.sender.username } : {}),
        ...(input.accountId ? { accountId: input.accountId } : {}),
        ...(input.peerId ? { peerId: input.peerId } : {}),
        ...(input.scopes ? { scopes: input.scopes } : {}),
      };
      const host: CommandHost = {
        ...deps,
        contextReport: (target) => buildContextReport(deps, target),
        visible: () => registry.list().filter((def) => access(def).allowed),
      };
      try {
        const hooked = (await deps.commandHooks?.(request)) ?? [];
        const outcome = await definition.run(request, host);
        deps.log.info(fields, "chat command answered");
        deps.events.emit({
          type: "command",
          action: definition.name,
          sessionKey: input.sessionKey,
          agentId: input.agentId,
          channel: input.channel,
          ...(input.accountId ? { accountId: input.accountId } : {}),
          senderId: input.sender.id,
          ...(outcome.sessionId ? { sessionId: outcome.sessionId } : {}),
          ...(outcome.previousSessionId ? { previousSessionId: outcome.previousSessionId } : {}),
          args: parsed.args,
          timestamp: deps.now(),
        });
        return {
          name: definition.name,
          text: [outcome.text, ...hooked].join("\n\n"),
          refused: false,
          ...(outcome.afterReply ? { afterReply: outcome.afterReply } : {}),
        };
      } catch (err) {
        deps.log.error({ ...fields, error: String(err) }, "chat command failed");
        return {
          name: definition.name,
          text: `/${definition.name} failed: ${String(err)}`,
          refused: false,
        };
      }
    },
  };
}
