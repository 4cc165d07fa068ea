// `gateway`: listener (port/bind), auth, remote client settings, Control UI, TLS, HTTP, reload.
import { type Static, Type } from "typebox";
import { acceptedForCompat, SecretRefSchema } from "./common.js";

/** Bind address policy of the gateway listener. */
export const GatewayBindSchema = Type.Union(
  [
    Type.Literal("loopback"),
    Type.Literal("lan"),
    Type.Literal("tailnet"),
    // OpenClaw's value: the config validates (with a warning), and the gateway refuses to start with it.
    acceptedForCompat(
      Type.Literal("auto"),
      "no issue yet: bind auto (use loopback, lan, tailnet or custom)",
    ),
    Type.Literal("custom"),
  ],
  { description: "Bind: loopback (default), lan, tailnet, auto or custom (customBindHost)." },
);
/** Static type of {@link GatewayBindSchema}. */
export type GatewayBind = Static<typeof GatewayBindSchema>;

/** How clients authenticate to the gateway. */
export const GatewayAuthModeSchema = Type.Union(
  [
    Type.Literal("none"),
    Type.Literal("token"),
    Type.Literal("password"),
    // OpenClaw's value: the config validates (with a warning), and the gateway refuses to start with it.
    acceptedForCompat(Type.Literal("trusted-proxy"), "no issue yet: trusted-proxy auth"),
  ],
  { description: "Auth mode: none, token (default), password or trusted-proxy." },
);
/** Static type of {@link GatewayAuthModeSchema}. */
export type GatewayAuthMode = Static<typeof GatewayAuthModeSchema>;

/** Rate limiting of failed authentication attempts. */
export const GatewayAuthRateLimitSchema = Type.Object(
  {
    maxAttempts: Type.Optional(Type.Integer({ minimum: 1, description: "Failures per IP." })),
    windowMs: Type.Optional(Type.Integer({ minimum: 0, description: "Sliding window (ms)." })),
    lockoutMs: Type.Optional(Type.Integer({ minimum: 0, description: "Lockout (ms)." })),
    exemptLoopback: Type.Optional(Type.Boolean({ description: "Exempt loopback clients." })),
  },
  { additionalProperties: false, description: "Failed-auth rate limit." },
);
/** Static type of {@link GatewayAuthRateLimitSchema}. */
export type GatewayAuthRateLimit = Static<typeof GatewayAuthRateLimitSchema>;

/** Identity-aware reverse proxy settings (auth mode `trusted-proxy`). */
export const GatewayTrustedProxySchema = Type.Object(
  {
    userHeader: Type.String({ description: "Header carrying the authenticated user." }),
    requiredHeaders: Type.Optional(
      Type.Array(Type.String(), { description: "Headers that must be present." }),
    ),
    allowUsers: Type.Optional(Type.Array(Type.String(), { description: "Allowed identities." })),
  },
  { additionalProperties: true, description: "Trusted proxy auth." },
);
/** Static type of {@link GatewayTrustedProxySchema}. */
export type GatewayTrustedProxy = Static<typeof GatewayTrustedProxySchema>;

/** `gateway.auth`: shared secret / proxy authentication. */
export const GatewayAuthSchema = Type.Object(
  {
    mode: Type.Optional(GatewayAuthModeSchema),
    token: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Shared token (token mode)." }),
    ),
    password: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Password (password mode)." }),
    ),
    allowTailscale: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Accept Tailscale identity headers." }),
        "no issue yet: Tailscale identity",
      ),
    ),
    rateLimit: Type.Optional(GatewayAuthRateLimitSchema),
    trustedProxy: Type.Optional(
      acceptedForCompat(GatewayTrustedProxySchema, "no issue yet: trusted-proxy auth"),
    ),
    identityScopes: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Scopes per identity." }),
        "no issue yet",
      ),
    ),
  },
  { additionalProperties: false, description: "Gateway authentication." },
);
/** Static type of {@link GatewayAuthSchema}. */
export type GatewayAuth = Static<typeof GatewayAuthSchema>;

/** `gateway.remote`: how this CLI/app reaches a remote gateway. */
export const GatewayRemoteSchema = Type.Object(
  {
    url: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Remote gateway URL (ws:// or wss://)." }),
        "no issue yet: remote gateway mode",
      ),
    ),
    token: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Remote auth token." }),
    ),
    password: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Remote auth password." }),
    ),
    tlsFingerprint: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Expected TLS certificate SHA-256 fingerprint." }),
        "no issue yet: remote gateway mode",
      ),
    ),
    transport: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Literal("ssh"), Type.Literal("direct")], {
          description: "Transport: ssh tunnel or direct.",
        }),
        "no issue yet: remote gateway mode",
      ),
    ),
    sshTarget: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "SSH target (user@host)." }),
        "no issue yet: remote gateway mode",
      ),
    ),
    sshIdentity: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "SSH identity file." }),
        "no issue yet: remote gateway mode",
      ),
    ),
  },
  { additionalProperties: true, description: "Remote gateway connection." },
);
/** Static type of {@link GatewayRemoteSchema}. */
export type GatewayRemote = Static<typeof GatewayRemoteSchema>;

/** `gateway.controlUi`: the browser Control UI served by the gateway. */
export const GatewayControlUiSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Serve the Control UI." })),
    basePath: Type.Optional(
      Type.String({
        description:
          'URL prefix the Control UI is served under (e.g. "/openclaw": the page at /openclaw/); unset serves it at /.',
      }),
    ),
    root: Type.Optional(
      acceptedForCompat(Type.String({ description: "Asset directory." }), "issue 17 (Control UI)"),
    ),
    allowedOrigins: Type.Optional(
      Type.Array(Type.String(), { description: "Allowed browser origins." }),
    ),
    allowInsecureAuth: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Allow insecure auth." }),
        "issue 17 (Control UI)",
      ),
    ),
  },
  { additionalProperties: true, description: "Control UI settings." },
);
/** Static type of {@link GatewayControlUiSchema}. */
export type GatewayControlUi = Static<typeof GatewayControlUiSchema>;

/** `gateway.tls`: TLS for the gateway listener. */
export const GatewayTlsSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable TLS." })),
    autoGenerate: Type.Optional(Type.Boolean({ description: "Self-sign when cert is missing." })),
    certPath: Type.Optional(Type.String({ description: "PEM certificate path." })),
    keyPath: Type.Optional(Type.String({ description: "PEM private key path." })),
    caPath: Type.Optional(Type.String({ description: "PEM CA bundle path." })),
  },
  { additionalProperties: true, description: "TLS settings." },
);
/** Static type of {@link GatewayTlsSchema}. */
export type GatewayTls = Static<typeof GatewayTlsSchema>;

/** `gateway.reload`: how config changes are applied. */
export const GatewayReloadSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union(
        [Type.Literal("off"), Type.Literal("restart"), Type.Literal("hot"), Type.Literal("hybrid")],
        { description: "Reload mode: off, restart, hot or hybrid (default)." },
      ),
    ),
    debounceMs: Type.Optional(Type.Integer({ minimum: 0, description: "Reload debounce (ms)." })),
  },
  { additionalProperties: false, description: "Config reload settings." },
);
/** Static type of {@link GatewayReloadSchema}. */
export type GatewayReload = Static<typeof GatewayReloadSchema>;

/** `gateway`: the WebSocket + HTTP server every client connects to. */
export const GatewayConfigSchema = Type.Object(
  {
    port: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 65535, description: "WS + HTTP port (default 18789)." }),
    ),
    // "local" is what Pincer does (and what `pincer onboard` writes); only "remote" is ignored.
    mode: Type.Optional(
      Type.Union(
        [
          Type.Literal("local"),
          acceptedForCompat(Type.Literal("remote"), "no issue yet: remote gateway mode"),
        ],
        { description: "local (run the gateway here) or remote (connect to gateway.remote)." },
      ),
    ),
    bind: Type.Optional(GatewayBindSchema),
    customBindHost: Type.Optional(Type.String({ description: "IP address for bind=custom." })),
    auth: Type.Optional(GatewayAuthSchema),
    remote: Type.Optional(GatewayRemoteSchema),
    controlUi: Type.Optional(GatewayControlUiSchema),
    tls: Type.Optional(acceptedForCompat(GatewayTlsSchema, "no issue yet: TLS listener")),
    http: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "HTTP endpoints and headers." }),
        "no issue yet: HTTP endpoints",
      ),
    ),
    reload: Type.Optional(
      acceptedForCompat(GatewayReloadSchema, "no issue yet: reload is always hot"),
    ),
    tailscale: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            mode: Type.Optional(
              Type.Union([Type.Literal("off"), Type.Literal("serve"), Type.Literal("funnel")], {
                description: "Tailscale exposure: off, serve or funnel.",
              }),
            ),
            resetOnExit: Type.Optional(Type.Boolean({ description: "Reset serve on exit." })),
          },
          { additionalProperties: true, description: "Tailscale exposure." },
        ),
        "no issue yet: Tailscale serve/funnel",
      ),
    ),
    nodes: Type.Optional(
      Type.Object(
        {
          denyCommands: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), {
              description:
                "Node commands node.invoke (and the nodes tool) refuse, by exact name (e.g. system.run).",
            }),
          ),
          allowCommands: Type.Optional(
            acceptedForCompat(
              Type.Array(Type.String(), { description: "Commands beyond a platform's defaults." }),
              "not needed: Pincer allows every command a node declares unless denyCommands names it",
            ),
          ),
        },
        {
          additionalProperties: acceptedForCompat(Type.Unknown(), "other node policy keys"),
          description: "Node (device) command policy.",
        },
      ),
    ),
    trustedProxies: Type.Optional(
      Type.Array(Type.String(), { description: "Reverse proxy IPs trusted for X-Forwarded-For." }),
    ),
    allowRealIpFallback: Type.Optional(
      Type.Boolean({ description: "Accept X-Real-IP when X-Forwarded-For is missing." }),
    ),
    publicOrigin: Type.Optional(Type.String({ description: "Public origin URL." })),
    tools: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            allow: Type.Optional(Type.Array(Type.String(), { description: "Tools allowed." })),
            deny: Type.Optional(Type.Array(Type.String(), { description: "Tools denied." })),
          },
          { additionalProperties: false, description: "HTTP /tools/invoke restrictions." },
        ),
        "no issue yet: HTTP /tools/invoke",
      ),
    ),
    channelHealthCheckMinutes: Type.Optional(
      acceptedForCompat(
        Type.Number({ minimum: 0, description: "Channel health check interval (0 = off)." }),
        "no issue yet: channel health checks",
      ),
    ),
  },
  { additionalProperties: true, description: "Gateway server settings." },
);
/** Static type of {@link GatewayConfigSchema}. */
export type GatewayConfig = Static<typeof GatewayConfigSchema>;
