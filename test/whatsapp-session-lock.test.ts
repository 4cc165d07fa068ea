// One process per WhatsApp session, across processes: while another process (here a child holding
// the lock through the built module, as a second gateway or `channels login` would) has an account's
// auth dir open, starting that account is refused naming the auth dir and the child's pid; once the
// child is gone its lock is stale and the account starts.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";
import { seedLinkedCreds } from "./helpers/fake-whatsapp-socket.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";
import {
  OWN_NUMBER,
  type StartedWhatsAppAccount,
  startWhatsAppAccount,
} from "./helpers/whatsapp-account.js";

const lockModule = pathToFileURL(
  fileURLToPath(new URL("../dist/channels/whatsapp/web/auth-lock.js", import.meta.url)),
).href;

let child: ChildProcess | undefined;
let started: StartedWhatsAppAccount | undefined;
afterEach(async () => {
  await started?.runtime.stop();
  started = undefined;
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

function holdLock(authDir: string): Promise<ChildProcess> {
  const script = `const m = await import(${JSON.stringify(lockModule)});
m.acquireWhatsAppAuthLock({ authDir: ${JSON.stringify(authDir)}, command: "channels login" });
console.log("locked");
setInterval(() => {}, 1000);`;
  const proc = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on("data", (chunk) => {
      if (String(chunk).includes("locked")) resolve(proc);
    });
    proc.once("exit", (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}

it("a second process holding the auth dir makes the account refuse to start, naming it", async () => {
  const stateDir = makeTempDir("pincer-wa-");
  const authDir = join(stateDir, "credentials", "whatsapp", "default");
  seedLinkedCreds(authDir, OWN_NUMBER);
  child = await holdLock(authDir);
  await expect(startWhatsAppAccount({ stateDir, waitConnected: false })).rejects.toThrow(
    `WhatsApp session ${authDir} is already open by pid ${child.pid} (channels login)`,
  );
  const exited = new Promise((resolve) => child!.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  started = await startWhatsAppAccount({ stateDir });
  expect(started.test.status()).toMatchObject({ connected: true });
});
