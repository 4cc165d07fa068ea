// The DM pairing store under `<stateDir>/credentials/` with OpenClaw's file names:
// `<channel>-pairing.json` (pending requests, 1 h expiry, at most 3 pending per account) and
// `<channel>-allowFrom.json` (`<channel>-<account>-allowFrom.json` for non-default accounts), the
// senders an operator approved. Every read goes to disk, so approvals apply to a running gateway; the
// allowFrom file (read on every inbound message) is re-parsed only when its stat changes. The same
// semantics run over PostgreSQL documents with cluster.store (pairingStoreOver, pg-pairing.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { type FileStamp, readFileStamp, sameFileStamp } from "../../lib/file-stamp.js";
import { DEFAULT_ACCOUNT_ID } from "../../routing/index.js";
import { generatePairingCode, normalizePairingCode } from "./pairing-code.js";

/** How long a pairing code stays valid. */
export const PAIRING_TTL_MS = 60 * 60 * 1000;
/** Pending requests allowed per (channel, account). */
export const MAX_PENDING_PER_ACCOUNT = 3;

/** One pending request (OpenClaw's `{id, code, createdAt, lastSeenAt, meta}`; ISO times). */
export interface PairingRequest {
  /** The sender id on the platform. */
  id: string;
  code: string;
  createdAt: string;
  lastSeenAt: string;
  meta: { accountId: string; name?: string; username?: string; [key: string]: unknown };
}

/** A pending request with its channel, as listed. */
export interface ListedPairingRequest extends PairingRequest {
  channel: string;
}

/** Result of {@link PairingStore.request}: a new code, the code already pending, or refused (full). */
export type PairingRequestResult =
  | { status: "created"; code: string }
  | { status: "pending"; code: string }
  | { status: "full" };

/** Inputs of {@link PairingStore.request}. */
export interface PairingRequestParams {
  channel: string;
  accountId: string;
  senderId: string;
  name?: string;
  username?: string;
}

/** The pairing store of one state dir. */
export interface PairingStore {
  readonly dir: string;
  request(params: PairingRequestParams): PairingRequestResult;
  /** Pending (unexpired) requests of one channel, or of every channel. */
  list(channel?: string): ListedPairingRequest[];
  /** Approves a code: the sender joins the account's allowFrom file; undefined if unknown. */
  approve(channel: string, code: string): PairingRequest | undefined;
  /** Drops a pending code; undefined if unknown. */
  reject(channel: string, code: string): PairingRequest | undefined;
  /** Senders approved for an account. */
  allowFrom(channel: string, accountId: string): readonly string[];
}

interface PairingFile {
  version: 1;
  requests: PairingRequest[];
}

/** Path of a channel's pending-request file. */
export function pairingFilePath(stateDir: string, channel: string): string {
  return join(stateDir, "credentials", `${channel}-pairing.json`);
}

/** Path of an account's approved-senders file. */
export function allowFromFilePath(stateDir: string, channel: string, accountId: string): string {
  const scoped = accountId === DEFAULT_ACCOUNT_ID ? channel : `${channel}-${accountId}`;
  return join(stateDir, "credentials", `${scoped}-allowFrom.json`);
}

function readJson(path: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`unreadable pairing file ${path}: ${String(err)}`);
  }
}

/** Where a pairing store keeps its two documents (files under credentials/, or PostgreSQL rows). */
export interface PairingDocuments {
  readonly dir: string;
  /** A channel's pending-request document (`{version: 1, requests}`), undefined when absent. */
  readPairing(channel: string): unknown;
  writePairing(channel: string, doc: { version: 1; requests: PairingRequest[] }): void;
  /** An account's approved senders (an empty list when absent). */
  readAllowFrom(channel: string, accountId: string): readonly string[];
  writeAllowFrom(
    channel: string,
    accountId: string,
    doc: { version: 1; allowFrom: string[] },
  ): void;
  /** The channels with a pending-request document. */
  pairingChannels(): string[];
}

/** The pairing documents as files under `<stateDir>/credentials/` (OpenClaw's names). */
export function filePairingDocuments(stateDir: string): PairingDocuments {
  const dir = join(stateDir, "credentials");
  // path -> the file stamp it was parsed at and its senders (atomic writes change the inode).
  const allowFromCache = new Map<string, { stamp: FileStamp; senders: string[] }>();
  const write = (path: string, doc: unknown) =>
    writeFileAtomic(path, `${JSON.stringify(doc, null, 2)}\n`);
  return {
    dir,
    readPairing: (channel) => readJson(pairingFilePath(stateDir, channel)),
    writePairing: (channel, doc) => write(pairingFilePath(stateDir, channel), doc),
    readAllowFrom(channel, accountId) {
      const path = allowFromFilePath(stateDir, channel, accountId);
      const stamp = readFileStamp(path);
      if (!stamp) return [];
      const cached = allowFromCache.get(path);
      if (cached && sameFileStamp(cached.stamp, stamp)) return cached.senders;
      const senders = allowFromList(readJson(path));
      allowFromCache.set(path, { stamp, senders });
      return senders;
    },
    writeAllowFrom: (channel, accountId, doc) =>
      write(allowFromFilePath(stateDir, channel, accountId), doc),
    pairingChannels: () =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((name) => name.endsWith("-pairing.json"))
            .map((name) => name.slice(0, -"-pairing.json".length))
        : [],
  };
}

/** The senders of an allowFrom document (`{version: 1, allowFrom}`); [] for anything else. */
export function allowFromList(doc: unknown): string[] {
  const list = (doc as { allowFrom?: unknown } | undefined)?.allowFrom;
  return Array.isArray(list) ? list.map(String) : [];
}

/** Opens the file store; `now` and `random` are injectable for tests. */
export function createPairingStore(params: {
  stateDir: string;
  now?: () => number;
  random?: (n: number) => number;
}): PairingStore {
  return pairingStoreOver({
    documents: filePairingDocuments(params.stateDir),
    ...(params.now ? { now: params.now } : {}),
    ...(params.random ? { random: params.random } : {}),
  });
}

/** The store's semantics (TTL, per-account cap, codes) over any {@link PairingDocuments}. */
export function pairingStoreOver(params: {
  documents: PairingDocuments;
  now?: () => number;
  random?: (n: number) => number;
}): PairingStore {
  const now = params.now ?? Date.now;
  const docs = params.documents;
  const live = (request: PairingRequest) => now() - Date.parse(request.createdAt) < PAIRING_TTL_MS;

  const readRequests = (channel: string): PairingRequest[] => {
    const file = docs.readPairing(channel) as PairingFile | undefined;
    return Array.isArray(file?.requests) ? file.requests.filter(live) : [];
  };
  const writeRequests = (channel: string, requests: PairingRequest[]) =>
    docs.writePairing(channel, { version: 1, requests });
  const allowFrom = (channel: string, accountId: string) => docs.readAllowFrom(channel, accountId);
  const take = (channel: string, code: string): PairingRequest | undefined => {
    const wanted = normalizePairingCode(code);
    const requests = readRequests(channel);
    const hit = requests.find((request) => request.code === wanted);
    if (hit)
      writeRequests(
        channel,
        requests.filter((request) => request !== hit),
      );
    return hit;
  };

  return {
    dir: docs.dir,
    request({ channel, accountId, senderId, name, username }) {
      const requests = readRequests(channel);
      const mine = requests.find((r) => r.id === senderId && r.meta.accountId === accountId);
      if (mine) {
        mine.lastSeenAt = new Date(now()).toISOString();
        writeRequests(channel, requests);
        return { status: "pending", code: mine.code };
      }
      const pending = requests.filter((r) => r.meta.accountId === accountId).length;
      if (pending >= MAX_PENDING_PER_ACCOUNT) return { status: "full" };
      const taken = new Set(requests.map((r) => r.code));
      let code = generatePairingCode(params.random);
      while (taken.has(code)) code = generatePairingCode(params.random);
      const at = new Date(now()).toISOString();
      requests.push({
        id: senderId,
        code,
        createdAt: at,
        lastSeenAt: at,
        meta: {
          accountId,
          ...(name ? { name } : {}),
          ...(username ? { username } : {}),
        },
      });
      writeRequests(channel, requests);
      return { status: "created", code };
    },
    list(channel) {
      const channels = channel !== undefined ? [channel] : docs.pairingChannels();
      return channels.flatMap((id) => readRequests(id).map((r) => ({ ...r, channel: id })));
    },
    approve(channel, code) {
      const hit = take(channel, code);
      if (!hit) return undefined;
      const accountId = hit.meta.accountId;
      const current = allowFrom(channel, accountId);
      if (!current.includes(hit.id))
        docs.writeAllowFrom(channel, accountId, { version: 1, allowFrom: [...current, hit.id] });
      return hit;
    },
    reject: take,
    allowFrom,
  };
}
