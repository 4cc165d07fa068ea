// The agent and session pickers: options from `agents.list` and `sessions.list`. The agent's main
// session is always offered first (WebChat attaches to it by default), even before it exists.

/** One agent of `agents.list`. */
export interface AgentRow {
  id: string;
  name?: string;
  isDefault?: boolean;
}

/** The `agents.list` payload as WebChat reads it. */
export interface AgentsListPayload {
  defaultId: string;
  mainKey: string;
  agents: AgentRow[];
}

/** One row of `sessions.list`. */
export interface SessionRow {
  key: string;
  label?: string;
  displayName?: string;
}

/** The main session key of an agent (`agent:<id>:<mainKey>`, as the gateway builds it). */
export function mainSessionKey(agentId: string, mainKey: string): string {
  return `agent:${agentId}:${mainKey}`;
}

function option(value: string, text: string): HTMLOptionElement {
  const item = document.createElement("option");
  item.value = value;
  item.textContent = text;
  return item;
}

/** Fills the agent picker and selects `selected`. */
export function fillAgentPicker(select: HTMLSelectElement, agents: AgentRow[], selected: string) {
  select.replaceChildren(
    ...agents.map((agent) =>
      option(agent.id, agent.name ? `${agent.name} (${agent.id})` : agent.id),
    ),
  );
  select.value = selected;
}

/** Fills the session picker: the main session first, then the agent's other sessions. */
export function fillSessionPicker(
  select: HTMLSelectElement,
  params: { mainKey: string; sessions: SessionRow[]; selected: string },
): void {
  const { mainKey, sessions, selected } = params;
  const others = sessions.filter((row) => row.key !== mainKey);
  const keys = new Set([mainKey, ...others.map((row) => row.key)]);
  const options = [
    option(mainKey, "main session"),
    ...others.map((row) => option(row.key, row.label ?? row.displayName ?? row.key)),
  ];
  if (!keys.has(selected)) options.push(option(selected, selected));
  select.replaceChildren(...options);
  select.value = selected;
}
