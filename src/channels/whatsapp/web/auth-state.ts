// One WhatsApp Web account's auth state on disk: Baileys' multi-file layout (`creds.json` plus one
// `<category>-<id>.json` per signal key, names as `useMultiFileAuthState` spells them), so an
// OpenClaw auth dir works unchanged. Unlike Baileys' own store every write is atomic (temp + fsync +
// rename: a crash never leaves a torn creds.json), files are 0600 and the dir 0700, and writes of one
// file are serialized so an older write never lands over a newer one.
import { chmod, mkdir, readFile, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { BufferJSON, initAuthCreds, proto } from "@whiskeysockets/baileys";
import { writeFileAtomicAsync } from "../../../lib/atomic-write.js";
import { WHATSAPP_CREDS_FILE } from "./auth-dir-path.js";
import type { AuthenticationCreds, AuthenticationState } from "./socket-seam.js";

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export {
  type ResolveAuthDirParams,
  resolveWhatsAppAuthDir,
  WHATSAPP_CREDS_FILE,
} from "./auth-dir-path.js";

/** A key file's name as Baileys' multi-file store writes it (`/` → `__`, `:` → `-`). */
export function authFileName(file: string): string {
  return file.replace(/\//g, "__").replace(/:/g, "-");
}

/** An account's loaded auth state: what the socket needs, and `saveCreds` for `creds.update`. */
export interface WhatsAppAuthStore {
  readonly authDir: string;
  readonly state: AuthenticationState;
  /** True when creds.json existed with a linked identity (`me`) when loaded or saved since. */
  linked(): boolean;
  /** Writes creds.json (atomically) from the state's current creds. */
  saveCreds(): Promise<void>;
  /** Waits for every write started so far. */
  flush(): Promise<void>;
}

/** Whether `authDir` holds linked credentials (creds.json with `me`), without loading the keys. */
export async function hasLinkedCreds(authDir: string): Promise<boolean> {
  const creds = await readJson(join(authDir, WHATSAPP_CREDS_FILE));
  return isLinked(creds as Partial<AuthenticationCreds> | undefined);
}

function isLinked(creds: Partial<AuthenticationCreds> | undefined): boolean {
  return typeof creds?.me?.id === "string" && creds.me.id.length > 0;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text, BufferJSON.reviver);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

async function ensurePrivateDir(authDir: string): Promise<void> {
  const info = await stat(authDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (info && !info.isDirectory()) throw new Error(`auth dir ${authDir} is not a directory`);
  if (!info) await mkdir(authDir, { recursive: true, mode: DIR_MODE });
  await chmod(authDir, DIR_MODE);
}

/** Loads (creating the dir 0700 if needed) the auth state of `authDir`; fresh creds when there are
 *  none yet. A creds.json that is not JSON is an error naming the file (never silently replaced). */
export async function openWhatsAppAuthStore(authDir: string): Promise<WhatsAppAuthStore> {
  await ensurePrivateDir(authDir);
  const credsPath = join(authDir, WHATSAPP_CREDS_FILE);
  const stored = (await readJson(credsPath)) as AuthenticationCreds | undefined;
  const creds: AuthenticationCreds = stored ?? initAuthCreds();
  let linked = isLinked(stored);
  const pending = new Map<string, Promise<void>>();

  // One chain per file: writes and removals of a file land in the order they were asked for.
  const serialized = (path: string, task: () => Promise<void>): Promise<void> => {
    const previous = pending.get(path) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    pending.set(path, next);
    const forget = () => {
      if (pending.get(path) === next) pending.delete(path);
    };
    next.then(forget, forget);
    return next;
  };
  const write = (file: string, value: unknown) =>
    serialized(join(authDir, authFileName(file)), () =>
      writeFileAtomicAsync(
        join(authDir, authFileName(file)),
        JSON.stringify(value, BufferJSON.replacer),
        { mode: FILE_MODE },
      ),
    );
  const remove = (file: string) =>
    serialized(join(authDir, authFileName(file)), () =>
      unlink(join(authDir, authFileName(file))).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
      }),
    );

  const state: AuthenticationState = {
    creds,
    keys: {
      get: async (type, ids) => {
        const out: Record<string, unknown> = {};
        await Promise.all(
          ids.map(async (id) => {
            const path = join(authDir, authFileName(`${type}-${id}.json`));
            await pending.get(path)?.catch(() => undefined);
            let value = await readJson(path);
            if (type === "app-state-sync-key" && value) {
              value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            }
            out[id] = value ?? undefined;
          }),
        );
        return out as never;
      },
      set: async (data) => {
        const tasks: Promise<void>[] = [];
        for (const [category, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            const file = `${category}-${id}.json`;
            tasks.push(value ? write(file, value) : remove(file));
          }
        }
        await Promise.all(tasks);
      },
    },
  };
  return {
    authDir,
    state,
    linked: () => linked,
    async saveCreds() {
      await write(WHATSAPP_CREDS_FILE, creds);
      linked = isLinked(creds);
    },
    async flush() {
      await Promise.allSettled([...pending.values()]);
    },
  };
}

/** Removes an auth dir and everything in it (unlinking an account); a missing dir is fine. */
export async function removeWhatsAppAuthDir(authDir: string): Promise<void> {
  await rm(authDir, { recursive: true, force: true });
}
