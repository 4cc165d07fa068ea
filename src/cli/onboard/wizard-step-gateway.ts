// The wizard's workspace and gateway sections. Quickstart asks no gateway questions: it keeps the
// config's port, bind and secret, or uses 18789, loopback and a generated token. Advanced (and
// `configure --section gateway`) asks each, prefilled with the current values.
import type { LoadedConfig } from "../../config/index.js";
import { displayPath } from "../command-context.js";
import { workspaceValue } from "../setup/setup.js";
import { workspaceProblem } from "../setup/workspace-guard.js";
import { type CurrentGateway, currentGateway, gatewayTokenFor } from "./flags.js";
import {
  DEFAULT_GATEWAY_PORT,
  type GatewayAnswer,
  generateGatewayToken,
  parsePort,
} from "./wizard-answers.js";
import { type Asked, CANCELLED, type Prompter } from "./wizard-prompts.js";

/** Asks where the default agent's workspace is (`offered` prefills another folder); undefined when
 * it stays where it is. */
export async function askWorkspace(
  p: Prompter,
  params: { loaded: LoadedConfig; currentDir: string; offered?: string },
): Promise<Asked<string | undefined>> {
  const home = params.loaded.paths.home;
  const shown = displayPath(params.currentDir, home);
  const typed = await p.text({
    message: "Workspace folder (the agent's files: AGENTS.md, SOUL.md, memory/)",
    initialValue: params.offered ?? shown,
    validate: (v) =>
      v.trim() === "" ? "a folder is required" : workspaceProblem(v, params.loaded.paths),
  });
  if (typed === CANCELLED) return CANCELLED;
  const value = workspaceValue(typed, params.loaded.paths);
  const same = value === shown || value === params.currentDir;
  return same && params.loaded.exists ? undefined : value;
}

/** The gateway answer with no questions: current settings, else OpenClaw's defaults. */
export function quickstartGateway(loaded: LoadedConfig): GatewayAnswer {
  const current = currentGateway(loaded);
  const port = current.port ?? DEFAULT_GATEWAY_PORT;
  const bind = current.bind ?? "loopback";
  if (current.mode === "password" && current.hasPassword)
    return { port, bind, auth: { mode: "password", password: current.password } };
  return { port, bind, auth: { mode: "token", token: gatewayTokenFor(current) } };
}

/** The token: kept (undefined when it is a SecretRef, left as it is), generated or typed. */
async function askToken(p: Prompter, current: CurrentGateway): Promise<Asked<string | undefined>> {
  const how = await p.select({
    message: "Gateway token",
    options: [
      ...(current.hasToken ? [{ value: "keep", label: "Keep the current token" }] : []),
      { value: "generate", label: "Generate a new one", hint: "clients need the new token" },
      { value: "enter", label: "Enter one" },
    ],
    initialValue: current.hasToken ? "keep" : "generate",
  });
  if (how === CANCELLED) return CANCELLED;
  if (how === "keep") return current.token;
  if (how === "generate") return generateGatewayToken();
  const typed = await p.password({
    message: "Token (16 characters or more)",
    validate: (v) => (v.trim().length < 16 ? "use at least 16 characters" : undefined),
  });
  return typed === CANCELLED ? CANCELLED : typed.trim();
}

/** Asks port, bind and auth, prefilled with the config's current gateway settings. */
export async function askGateway(p: Prompter, loaded: LoadedConfig): Promise<Asked<GatewayAnswer>> {
  const current = currentGateway(loaded);
  const portText = await p.text({
    message: "Gateway port",
    initialValue: String(current.port ?? DEFAULT_GATEWAY_PORT),
    validate: (v) => (parsePort(v) === undefined ? "a port number 1-65535" : undefined),
  });
  if (portText === CANCELLED) return CANCELLED;
  const bind = await p.select<GatewayAnswer["bind"]>({
    message: "Listen on",
    options: [
      { value: "loopback", label: "This machine only (loopback)", hint: "recommended" },
      {
        value: "lan",
        label: "Every interface (LAN)",
        hint: "needs auth; reachable from the network",
      },
      { value: "tailnet", label: "This host's Tailscale address" },
    ],
    initialValue: current.bind ?? "loopback",
  });
  if (bind === CANCELLED) return CANCELLED;
  const mode = await p.select<"token" | "password">({
    message: "Client authentication",
    options: [
      { value: "token", label: "Token", hint: "recommended" },
      { value: "password", label: "Password" },
    ],
    initialValue: current.mode === "password" ? "password" : "token",
  });
  if (mode === CANCELLED) return CANCELLED;
  const port = parsePort(portText) ?? DEFAULT_GATEWAY_PORT;
  if (mode === "token") {
    const token = await askToken(p, current);
    if (token === CANCELLED) return CANCELLED;
    return { port, bind, auth: { mode, token } };
  }
  const password = await p.password({
    message: "Gateway password",
    validate: (v) => (v.length < 8 ? "use at least 8 characters" : undefined),
  });
  if (password === CANCELLED) return CANCELLED;
  return { port, bind, auth: { mode, password } };
}
