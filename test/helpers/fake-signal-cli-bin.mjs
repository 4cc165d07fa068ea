// A stand-in `signal-cli` executable for the autoStart test: `--log FILE -a ACCOUNT daemon --http
// HOST:PORT …` serves the daemon's HTTP API (check, JSON-RPC, the event stream) on that port and
// appends what happens to FILE as JSON lines (started with its argv and pid, streams, RPC calls,
// stopped on SIGTERM). `POST /__push {envelope}` sends a receive event to the open streams.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";

const argv = process.argv.slice(2);
const logFile = argv[argv.indexOf("--log") + 1];
const args = argv.slice(argv.indexOf("--log") + 2);
const account = args[args.indexOf("-a") + 1];
const [host, port] = args[args.indexOf("--http") + 1].split(/:(?=\d+$)/);
const log = (entry) =>
  appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
const open = new Set();
let eventId = 0;
let timestamp = 1_900_000_000_000;

const body = async (req) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
};

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://fake.invalid");
  if (url.pathname === "/api/v1/check") return res.writeHead(200).end();
  if (url.pathname === "/api/v1/events") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(": hi\n\n");
    open.add(res);
    res.on("close", () => open.delete(res));
    log({ stream: url.searchParams.get("account") });
    return;
  }
  if (url.pathname === "/api/v1/rpc") {
    const call = JSON.parse(await body(req));
    log({ method: call.method, params: call.params });
    const result = call.method === "send" ? { timestamp: ++timestamp } : {};
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result }));
  }
  if (url.pathname === "/__push") {
    const { envelope } = JSON.parse(await body(req));
    eventId += 1;
    const data = JSON.stringify({ envelope, account });
    for (const stream of open) stream.write(`id:${eventId}\nevent:receive\ndata:${data}\n\n`);
    return res.writeHead(200).end();
  }
  res.writeHead(404).end();
});

process.on("SIGTERM", () => {
  log({ stopped: true });
  for (const stream of open) stream.destroy();
  server.close(() => process.exit(0));
});
server.listen(Number(port), host, () => log({ started: args }));
