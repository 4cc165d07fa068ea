// What the Overview page reads off the gateway's answers: uptime words, each channel account's
// state as a badge, and the config file's problems (config.get on an invalid or rejected file).

/** One account row of `channels.status` (`channelAccounts[channel][]`). */
export interface ChannelAccountRow {
  accountId: string;
  enabled?: boolean;
  configured?: boolean;
  running?: boolean;
  connected?: boolean;
  lastError?: string;
  failedDeliveries?: number;
}

/** The `channels.status` payload as the page reads it. */
export interface ChannelsStatus {
  channelOrder?: string[];
  channelLabels?: Record<string, string>;
  channelAccounts?: Record<string, ChannelAccountRow[]>;
}

/** A channel account as the overview lists it. */
export interface AccountSummary {
  channel: string;
  label: string;
  accountId: string;
  state: "connected" | "running" | "stopped" | "disabled" | "error";
  badge: "ok" | "warn" | "err";
  lastError?: string;
}

/** `1 d 2 h`, `3 h 4 min`, `5 min`, `12 s`. */
export function uptimeWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** Every account of every channel, in the gateway's channel order. */
export function accountSummaries(status: ChannelsStatus): AccountSummary[] {
  const accounts = status.channelAccounts ?? {};
  const order = status.channelOrder ?? Object.keys(accounts);
  return order.flatMap((channel) =>
    (accounts[channel] ?? []).map((row): AccountSummary => {
      const label = status.channelLabels?.[channel] ?? channel;
      const base = { channel, label, accountId: row.accountId };
      const lastError = row.lastError ? { lastError: row.lastError } : {};
      if (row.enabled === false) return { ...base, state: "disabled", badge: "warn" };
      if (row.connected) return { ...base, state: "connected", badge: "ok", ...lastError };
      if (row.running) return { ...base, state: "running", badge: "ok", ...lastError };
      if (row.lastError) return { ...base, state: "error", badge: "err", ...lastError };
      return { ...base, state: "stopped", badge: "warn" };
    }),
  );
}

/** One problem of the config file, as config.get reports it. */
export interface ConfigProblem {
  severity: "error" | "warning";
  path: string;
  message: string;
  line?: number;
}

/** The `config.get` payload fields the overview reads. */
export interface ConfigGetPayload {
  path?: string;
  valid?: boolean;
  issues?: ConfigProblem[];
  rejected?: { message?: string };
}

/** The problems to show at the top: errors of an invalid file, and a reload the gateway refused. */
export function configProblems(config: ConfigGetPayload): string[] {
  const problems: string[] = [];
  if (config.valid === false) {
    for (const issue of config.issues ?? []) {
      if (issue.severity !== "error") continue;
      const where = issue.line === undefined ? "" : ` (line ${issue.line})`;
      problems.push(`${issue.path || "(file)"}${where}: ${issue.message}`);
    }
    if (problems.length === 0) problems.push("the config file is not valid");
  }
  if (config.rejected?.message) problems.push(`reload refused: ${config.rejected.message}`);
  return problems;
}
