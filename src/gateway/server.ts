// startGateway: one node:http server; `ws` in noServer mode takes the upgrades on the same port.
// Builds the runtime once (state-dir lock held), serves the methods, broadcasts events (tick every
// 30 s, health, presence, shutdown) and shuts down gracefully: stop accepting, `shutdown` event,
// drain runs up to a bound, close sockets, flush stores, release the lock.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createPairingAccess } from "../channels/pairing/pairing-access.js";
import { loadConfig, refreshEnv } from "../config/index.js";
import { LiveConfig } from "../config/live-config.js";
import { createGatewayCron } from "../cron/gateway-cron.js";
import { createCronToolHosts } from "../cron/tool-host.js";
import { createGatewayHooks } from "../hooks/gateway-hooks.js";
import { silentLogger, teeLogger } from "../lib/logger.js";
import { loadGatewayPlugins } from "../plugins/gateway-plugins.js";
import { withPluginMethods } from "../plugins/methods.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { GATEWAY_RESTART_KEYS } from "../protocol/config/restart-keys.js";
import { withModelRefIssues } from "../runtime/models/model-ref-rules.js";
import { acquireStateDirLock } from "../sessions/index.js";
import { createExecApprovalHub } from "./approvals/exec-approval-hub.js";
import { createGatewayDeviceAuthority } from "./auth/device-authority.js";
import { AuthRateLimiter } from "./auth/failed-auth-limit.js";
import { judgeAuthReload } from "./auth/reload-policy.js";
import { assertAuthForHost, resolveGatewayAuth, sameSharedAuth } from "./auth/shared-secret.js";
import { GatewayChannels } from "./channels.js";
import { trackConnections } from "./connection-tracking.js";
import type { GatewayCore } from "./core.js";
import { createLiveDevices, pendingView, pgDeviceDocuments } from "./devices/index.js";
import {
  type EmitEvent,
  EventSubscriptions,
  fanOut,
  SLOW_CLIENT_BYTES,
  serializeEvent,
} from "./events/event-fanout.js";
import {
  GatewayConfigError,
  type GatewayHandle,
  type StartGatewayOptions,
} from "./gateway-options.js";
import { buildHealth } from "./health.js";
import { createGatewayHeartbeats } from "./heartbeat/gateway-scheduler.js";
import { createHeartbeatDelivery } from "./heartbeat/reply-delivery.js";
import { createHooksHttp } from "./http/hooks-http.js";
import { listen } from "./http/listen.js";
import { answerClientError, answerConnectMethod, MAX_HEADER_BYTES } from "./http/refusals.js";
import { handleHttp } from "./http/routes.js";
import { defaultUiDir } from "./http/ui-files.js";
import { createUpgradeHandler } from "./http/upgrade-handler.js";
import { createWebhookRoutes } from "./http/webhook-routes.js";
import { DedupeCache } from "./idempotency-cache.js";
import { createCompatKeyWarner } from "./live-config/compat-warnings.js";
import { restartRefusal } from "./live-config/restart-refusal.js";
import { createRingLogger, LogRing } from "./logging/log-ring.js";
import { createMethodDeps } from "./methods/method-deps.js";
import { bindMethods, GATEWAY_METHODS } from "./methods/method-table.js";
import { NodeRegistry } from "./nodes/node-registry.js";
import { createNodesToolHost } from "./nodes/nodes-tool-host.js";
import { PresenceTable } from "./presence.js";
import { RunResources } from "./runs/run-resources.js";
import { RunTracker, startDetachedRun } from "./runs/run-tracker.js";
import { openTurnJournal, type TurnJournal } from "./runs/turn-journal.js";
import { recoverTurns } from "./runs/turn-journal-recover.js";
import { startSandboxPrune } from "./sandbox-prune.js";
import { SystemEventQueue } from "./system-events.js";
import { type ConnectionHost, GatewayConnection } from "./ws/connection.js";
import { MAX_BUFFERED_BYTES, TICK_INTERVAL_MS } from "./ws/handshake.js";
import { buildHello } from "./ws/hello.js";
import { lazyWebSocketServer } from "./ws/ws-server.js";

// ws is CommonJS: required, not imported (see lib/require-commonjs.ts).

const AUTH_CHANGED_REASON = "gateway auth changed: reconnect with the new credentials";

export { GatewayConfigError, type GatewayHandle, type StartGatewayOptions };

/** Starts the gateway and resolves once it accepts connections. */
export async function startGateway(options: StartGatewayOptions = {}): Promise<GatewayHandle> {
  // The environment the config is loaded (and reloaded) against; `env` below is what runs read.
  const baseEnv = options.env ?? process.env;
  const loadOptions = {
    env: baseEnv,
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.configPath ? { configPath: options.configPath } : {}),
  };
  const given = options.loaded ?? loadConfig<OpenClawConfig>(loadOptions);
  const loaded = withModelRefIssues(given, given.env);
  // One live object (process env + the config's `env` vars), refreshed in place on every reload so
  // new runs, channels and auth see changed vars.
  const env = { ...loaded.env };
  if (!loaded.valid) throw new GatewayConfigError(`config ${loaded.path} is invalid`, loaded);
  const now = options.clock ? () => options.clock!.now() : Date.now;
  const logs = new LogRing();
  const logger = teeLogger(createRingLogger(logs), options.logger ?? silentLogger);
  const warnCompatKeys = createCompatKeyWarner(logger);
  warnCompatKeys(loaded.config);
  const listenHost = options.host ?? "127.0.0.1";
  // Auth is resolved the same way at start and on every reload (flags > env > config > token file).
  const authParams = {
    env,
    stateDir: loaded.paths.stateDir,
    ...(options.auth ? { overrides: options.auth } : {}),
  };
  const started = resolveGatewayAuth({ cfg: loaded.config, ...authParams });
  let auth = started.auth;
  assertAuthForHost(auth, listenHost);
  const lock = acquireStateDirLock({ stateDir: loaded.paths.stateDir, command: "gateway" });
  let turns: TurnJournal;
  try {
    turns = openTurnJournal({ stateDir: loaded.paths.stateDir, logger, now });
  } catch (err) {
    lock.release();
    throw err;
  }
  const plugins = await loadGatewayPlugins({
    ...{ config: loaded.config.plugins, stateDir: loaded.paths.stateDir, home: loaded.paths.home },
    ...{ configPath: loaded.path, logger },
  });
  const connections = new Set<GatewayConnection>();
  let healthVersion = 0;
  const live = new LiveConfig({
    load: { ...loadOptions, paths: loaded.paths, configPath: loaded.path },
    initial: loaded,
    logger,
    now,
    restartKeys: GATEWAY_RESTART_KEYS,
    // A reload naming an unknown model is refused as the same config is at start.
    check: (next) => withModelRefIssues(next, next.env),
    // A reload that would weaken auth is refused while running (it applies on restart).
    vet: (next, running) => {
      const verdict = judgeAuthReload({
        ...authParams,
        env: next.env,
        current: auth,
        runningConfig: running.config,
        nextConfig: next.config,
        listenHost,
      });
      if (verdict.ok) return undefined;
      const at = next.locate("gateway.auth") ?? next.locate("gateway") ?? next.locate("");
      const issue = { severity: "error" as const, path: "gateway.auth", message: verdict.message };
      return { reason: verdict.reason, message: verdict.message, issues: [{ ...issue, ...at }] };
    },
    onChange: (next) => {
      refreshEnv(env, live.loaded.env);
      try {
        const previous = auth;
        auth = resolveGatewayAuth({ cfg: next, ...authParams }).auth;
        if (!sameSharedAuth(previous, auth)) {
          // A fresh start would not accept the old secret: neither do connections made with it.
          for (const conn of connections) conn.expireSharedAuth(AUTH_CHANGED_REASON);
        }
      } catch (err) {
        // vet() resolved the same settings a moment ago: only a file-system error lands here.
        logger.error(
          { error: String(err) },
          "cannot switch auth to the new config; keeping the running auth",
        );
      }
      runtime.applyConfig(live.resolved);
      warnCompatKeys(next);
      hooksHttp.check();
      heartbeats.reschedule();
      cron.reschedule();
      syncChannels();
    },
  });
  // Built before the runtime (its runs ask it); it reads the stores, broadcast and channels lazily.
  const approvals = createExecApprovalHub({
    stateDir: loaded.paths.stateDir,
    now,
    ...(options.execApprovalTimeoutMs ? { timeoutMs: options.execApprovalTimeoutMs } : {}),
    broadcast: (event, payload, emit) => broadcast(event, payload, emit),
    channels: () => channels.host,
    stores: () => runtime.stores,
    logger,
  });
  // Internal hooks (`hooks.internal`): loaded once the gateway listens; `agent:bootstrap` handlers
  // reach every prompt through the registry the runtime is given.
  const internalHooks = createGatewayHooks({
    logger,
    stateDir: loaded.paths.stateDir,
    env,
    config: () => live.resolved,
    now,
    stores: () => runtime.stores,
    startTurn: (turn) => startDetachedRun({ runs: core.runs, prefix: "hook", turn, logger }),
  });
  const runtime = new RunResources({
    approvals,
    config: () => live.resolved,
    bootstrapHooks: internalHooks.bootstrap,
    paths: loaded.paths,
    env,
    lock,
    logger,
    ...(options.streamFn ? { streamFn: options.streamFn } : {}),
    ...(options.bundledSkillsDir ? { bundledSkillsDir: options.bundledSkillsDir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(plugins.host ? { plugins: plugins.host } : {}),
    ...(plugins.onSessionLifecycle ? { onSessionLifecycle: plugins.onSessionLifecycle } : {}),
    // Runs start once listening, after the cron service below exists.
    cronTools: (agentId) => cronToolHosts(agentId),
    nodeTools: createNodesToolHost(() => methods),
  });
  const nodes = new NodeRegistry({ now, logger });
  const bootId = randomUUID();
  const version = options.version ?? "0.1.0";
  const presence = new PresenceTable({ now, version, instanceId: bootId });
  const stateVersion = () => ({ presence: presence.version, health: healthVersion });
  const subscriptions = new EventSubscriptions();
  const slowClientBytes = Math.min(
    SLOW_CLIENT_BYTES,
    (options.maxBufferedBytes ?? MAX_BUFFERED_BYTES) / 2,
  );
  const broadcast: EmitEvent = (event, payload, emit) => {
    if (event === "health") healthVersion++;
    const versions = event === "presence" || event === "health" ? stateVersion() : undefined;
    const frame = serializeEvent({
      event,
      payload,
      stateVersion: versions,
      droppable: emit?.droppable,
      textDeltas: emit?.textDeltas,
    });
    fanOut({ frame, targets: connections, subscriptions, slowClientBytes });
  };
  // Presence changes are coalesced: one event per burst of connects/disconnects/beacons.
  let presenceTimer: NodeJS.Timeout | undefined;
  const presenceChanged = () => {
    presenceTimer ??= setTimeout(() => {
      presenceTimer = undefined;
      broadcast("presence", { presence: presence.list() });
    }, 50);
  };
  // Created before the channels: their turns start through it, as the WS turns do.
  const runs = new RunTracker({
    runtime,
    emit: broadcast,
    logger,
    now,
  });
  // Channel webhooks (e.g. the WhatsApp Cloud API) are served on this gateway's HTTP port.
  const webhooks = createWebhookRoutes({ logger });
  const pgStore = loaded.config.cluster?.store?.kind === "postgres";
  // DM pairing in PostgreSQL too (opened after stores.ready(), before the channels start).
  const pairing = createPairingAccess({
    ...{ stateDir: loaded.paths.stateDir, now, logger },
    ...(pgStore ? { postgres: () => runtime.stores.postgres } : {}),
  });
  const channels = new GatewayChannels({
    pairing,
    options: options.channels ?? {},
    webhooks,
    config: () => live.config,
    stateDir: loaded.paths.stateDir,
    env,
    logger,
    runtime,
    runs,
    approvals,
    emit: (event, payload) => broadcast(event, payload),
    now,
    turnsResumed: () => core.turnsResumed,
    ...(options.onRestartRequest ? { requestRestart: options.onRestartRequest } : {}),
    restartRefusal: () => restartRefusal(live.status()),
    ...(plugins.host ? { plugins: plugins.host } : {}),
    hooks: internalHooks,
  });
  const deviceAuthority = createGatewayDeviceAuthority({
    stateDir: loaded.paths.stateDir,
    now,
    logger,
    onPairingRequested: (request) => broadcast("device.pair.requested", pendingView(request)),
    // Sessions in PostgreSQL: the pairing store lives there too (opened by stores.ready()).
    ...(pgStore ? { documents: pgDeviceDocuments(() => runtime.stores.postgres) } : {}),
  });
  const syncChannels = () =>
    channels.sync().catch((err: unknown) => {
      logger.error({ error: String(err) }, "channels failed to start");
    });
  const core: GatewayCore = {
    version,
    bootId,
    startedAt: now(),
    now,
    env,
    paths: loaded.paths,
    get authMode() {
      return auth.mode;
    },
    live,
    runtime,
    runs,
    channels,
    presence,
    dedupe: new DedupeCache({ now }),
    turns,
    turnsResumed: Promise.resolve(),
    logs,
    logger,
    broadcast,
    subscriptions,
    presenceChanged,
    stateVersion,
    connectionCount: () => [...connections].filter((conn) => conn.state === "ready").length,
    devices: createLiveDevices({ store: deviceAuthority.store, connections: () => connections }),
    approvals,
    nodes,
    methodNames: () => [...methods.keys()],
    plugins: plugins.registry.plugins,
  };
  // System events (cron, webhook wakes, hook summaries) that a session's next heartbeat reads.
  const systemEvents = new SystemEventQueue();
  const heartbeats = createGatewayHeartbeats({
    core,
    systemEvents,
    deliver: options.deliverHeartbeat ?? createHeartbeatDelivery(core),
    ...(options.heartbeatTimers ? { timers: options.heartbeatTimers } : {}),
  });
  const cron = createGatewayCron({ core, systemEvents });
  const methods = withPluginMethods({
    methods: bindMethods(GATEWAY_METHODS, createMethodDeps({ core, heartbeats, cron })),
    registry: plugins.registry,
    logger,
  });
  const cronToolHosts = createCronToolHosts({
    methods: () => methods,
    cron: () => cron,
    config: () => live.resolved,
    systemEvents,
    beat: (agentId) => heartbeats.beat(agentId),
    logger,
  });
  // Webhooks (`hooks.enabled`) on this port; the action module loads on the first accepted request.
  const hooksHttp = createHooksHttp({
    config: () => live.config,
    env,
    logger,
    now,
    actions: async () =>
      (await import("./http/hooks-actions.js")).createHookActions({
        core,
        heartbeats,
        systemEvents,
      }),
  });
  const limiter = new AuthRateLimiter({
    ...options.authRateLimit,
    now,
    settings: () => live.config.gateway?.auth?.rateLimit,
  });
  const host: ConnectionHost = {
    core,
    methods,
    auth: () => auth,
    limiter,
    authority: options.deviceAuthority ?? deviceAuthority,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    ...(options.maxBufferedBytes ? { maxBufferedBytes: options.maxBufferedBytes } : {}),
    hello: (conn, accepted) =>
      buildHello({
        core,
        conn,
        accepted,
        tickIntervalMs: options.tickIntervalMs ?? TICK_INTERVAL_MS,
        health: buildHealth(core),
      }),
    ...trackConnections({ connections, presence, presenceChanged, subscriptions, nodes }),
  };
  const wss = lazyWebSocketServer();
  let accepting = true;
  const uiDir = options.uiDir ?? defaultUiDir();
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) =>
    // Unauthenticated HTTP gets liveness only; the full health snapshot is the `health` method.
    handleHttp(
      {
        version,
        health: () => ({ ok: true, ts: now(), uptimeMs: now() - core.startedAt }),
        logger,
        uiDir,
        uiEnabled: () => live.config.gateway?.controlUi?.enabled !== false,
        uiBasePath: () => live.config.gateway?.controlUi?.basePath,
        webhooks,
        hooks: hooksHttp,
      },
      req,
      res,
    ),
  );
  // Origin / Host / forwarded-header checks first (http/upgrade-guard.ts); refused upgrades get 403.
  server.on(
    "upgrade",
    createUpgradeHandler({
      wss,
      config: () => live.config,
      listenHost: () => listenHost,
      accepting: () => accepting,
      logger,
      onSocket: (ws, client) => connections.add(new GatewayConnection({ ws, ...client, host })),
    }),
  );
  server.on("clientError", (err, socket) => answerClientError(err, socket, logger));
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => answerConnectMethod(socket));
  const listenPort = options.port ?? loaded.config.gateway?.port ?? 18789;
  try {
    // Sessions in PostgreSQL (cluster.store): connected and the index loaded before any request.
    await runtime.stores.ready();
    await pairing.open();
    await listen(server, listenPort, listenHost);
    setImmediate(wss);
  } catch (err) {
    lock.release();
    live.close();
    await turns.close();
    throw err;
  }
  server.on("error", (err) => logger.error({ error: String(err) }, "http server error"));
  // Seeded before the first request is read: retries get stored outcomes; unsettled turns resume.
  core.turnsResumed = recoverTurns(core).catch((err: unknown) => {
    logger.error({ error: String(err) }, "turn recovery failed");
  });
  if (options.watchConfig !== false) live.watch();
  heartbeats.reschedule();
  cron.start();
  const timers = [
    setInterval(() => broadcast("tick", { ts: now() }), options.tickIntervalMs ?? TICK_INTERVAL_MS),
    setInterval(() => {
      if (presence.prune()) broadcast("presence", { presence: presence.list() });
      broadcast("health", buildHealth(core));
    }, options.healthIntervalMs ?? 60_000),
    startSandboxPrune({ config: () => live.resolved, env, logger, now }),
  ];
  for (const timer of timers) timer.unref();
  const port = (server.address() as AddressInfo).port;
  const urlHost = listenHost.includes(":") ? `[${listenHost}]` : listenHost;
  const url = `ws://${urlHost}:${port}`;
  logger.info({ url, authMode: auth.mode, stateDir: loaded.paths.stateDir }, "gateway ready");
  hooksHttp.check();
  // Hooks load before the channels start (no message without its hooks); `gateway:startup` fires
  // once the channels have started (OpenClaw's order).
  void internalHooks
    .load()
    .then(() => syncChannels())
    .then(() => internalHooks.startup());
  if (plugins.host) void plugins.host.hooks.observe("gateway_start", { port }, { port });
  // After the caller's ready line (a macrotask later): the first turn finds the run modules loaded.
  const preload = setImmediate(() => void runtime.preload(`http://${urlHost}:${port}/health`));
  let closing: Promise<void> | undefined;
  const close = (reason = "gateway stopping") => {
    closing ??= (async () => {
      accepting = false;
      clearImmediate(preload);
      for (const timer of timers) clearInterval(timer);
      clearTimeout(presenceTimer);
      live.close();
      await heartbeats.close();
      await internalHooks.close();
      // The timer stops now; runs in flight end with the drain below.
      const cronClosed = cron.close();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      broadcast("shutdown", { reason });
      // No new channel inbound while the runs drain; accounts stop once their replies are out.
      channels.pauseInbound();
      const drained = await core.runs.drain(options.drainTimeoutMs ?? 10_000);
      logger.info(drained, "runs drained");
      await cronClosed;
      await channels.stop().catch((err: unknown) => {
        logger.error({ error: String(err) }, "channels failed to stop");
      });
      await pairing.close();
      for (const conn of connections) conn.close(1012, "gateway shutting down");
      await plugins.host?.hooks.observe("gateway_stop", { reason }, { port });
      await runtime.close();
      await turns.close();
      for (const client of wss().clients) client.terminate();
      server.closeAllConnections();
      await serverClosed;
      lock.release();
      logger.info({ reason }, "gateway stopped");
    })();
    return closing;
  };
  return {
    url,
    host: listenHost,
    port,
    bootId,
    core,
    heartbeats,
    cron,
    ...(started.tokenFile ? { tokenFile: started.tokenFile } : {}),
    connectionCount: core.connectionCount,
    close,
  };
}
