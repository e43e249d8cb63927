import { z } from 'zod';
import { CHAIN_SECTIONS, DEFAULT_STRATUM_PORTS } from './families/index.js';
import {
  ALGORITHM_IDS,
  COIN_IDS,
  DEFAULT_FEE_BASIS_POINTS,
  PAYOUT_SCHEMES,
  type CoinId,
} from './constants.js';
import { alertSettingsSchema } from './alerts.js';
import { payoutThresholdsSchema } from './payout-thresholds.js';
import type { VardiffSettings } from './section.js';

// One schema for the whole process. Every default is the embedded dev profile: PGlite under
// ./data, regtest dev chains started for you, web + API on 8080, Stratum on the seed's ports.
// Each coin family contributes its `chains.<COIN>` sections, their environment variables and its
// default Stratum ports (config/families/<family>.ts, gathered by config/families/index.ts).

/**
 * A port's vardiff as written: every key may be left out, and what is left out is the coin's
 * default port's (its family's config.ts, DEFAULT_STRATUM_PORTS), so `{ "port", "coin" }` alone
 * is a whole port.
 */
const vardiff = z
  .object({
    start: z.number().positive(),
    min: z.number().positive(),
    max: z.number().positive(),
    targetSeconds: z.number().positive(),
    retargetSeconds: z.number().positive(),
    variancePercent: z.number().min(0).max(100),
  })
  .partial();

/** The coin's default vardiff (every coin of the table has a default port). */
function defaultVardiffOf(coin: CoinId): VardiffSettings {
  const port = DEFAULT_STRATUM_PORTS.find((candidate) => candidate.coin === coin);
  if (!port) throw new Error(`config: no default Stratum port for ${coin}`);
  return port.vardiff;
}

const stratumPort = z
  .object({
    port: z.number().int().min(0).max(65_535),
    coin: z.enum(COIN_IDS),
    scheme: z.enum(PAYOUT_SCHEMES).default('pps-plus'),
    vardiff: vardiff.optional(),
    tls: z.object({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
    /**
     * The port's dialect: "v1" (JSON lines) or "v2" (Stratum V2: Noise-encrypted binary frames,
     * SHA-256d coins only; coins/bitcoin/stratum-v2). A V2 port takes no `tls` (Noise encrypts it).
     */
    protocol: z.enum(['v1', 'v2']).default('v1'),
  })
  .transform(({ vardiff: written, ...port }) => ({
    ...port,
    vardiff: { ...defaultVardiffOf(port.coin), ...written },
  }))
  .refine(({ vardiff: { start, min, max } }) => min <= start && start <= max, {
    message: 'vardiff must satisfy min <= start <= max',
    path: ['vardiff'],
  });

export const configSchema = z
  .object({
    /** The host name miners and browsers use to reach this pool. */
    publicHost: z.string().min(1).default('localhost'),
    dataDir: z.string().min(1).default('./data'),
    databaseUrl: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    log: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        pretty: z.boolean().optional(),
      })
      .prefault({}),
    http: z
      .object({
        host: z.string().min(1).default('0.0.0.0'),
        port: z.number().int().min(0).max(65_535).default(8080),
        bodyLimitBytes: z
          .number()
          .int()
          .min(1_024)
          .default(64 * 1024),
        trustProxy: z.boolean().default(false),
        /**
         * Bearer token /metrics asks for. Unset: /metrics answers only direct loopback connections
         * (127.0.0.1, ::1) that carry no proxy header (X-Forwarded-For, Forwarded, X-Real-IP).
         */
        metricsToken: z.string().min(16).optional(),
        /** Serve the built web app from this directory (empty string: do not serve). */
        webDist: z.string().default('apps/web/dist'),
        /**
         * Open HTTP connections (API, web app, WebSocket) at most. At the cap a new connection
         * takes the place of the oldest that has not begun a request, or is closed as it is
         * accepted, before a byte is read. Default: a share of the process's open-files limit
         * (config/fd-budget.ts), so Stratum and the node clients keep theirs.
         */
        maxConnections: z.number().int().min(1).optional(),
        /**
         * Open HTTP connections of one peer address at most (the socket's address: behind a
         * reverse proxy every client is the proxy, so raise this and limit per client there).
         */
        maxConnectionsPerAddress: z.number().int().min(1).default(64),
        /** A client has this long from connecting to finish sending a request's headers. */
        headersTimeoutSeconds: z.number().min(1).max(120).default(5),
        /** A client has this long from connecting to finish sending a whole request (headers and body). */
        requestTimeoutSeconds: z.number().min(1).max(600).default(30),
        /** A kept-alive connection with no request in flight is closed after this long. */
        keepAliveTimeoutSeconds: z.number().min(1).max(600).default(5),
        /**
         * A started request whose body arrives slower than this (bytes a second, averaged since it
         * began, judged after bodyGraceSeconds) is closed; at the connection cap it may be evicted.
         */
        minBodyBytesPerSecond: z.number().int().min(1).default(256),
        bodyGraceSeconds: z.number().min(0.5).max(60).default(3),
        /** Open /api/live WebSockets at most per account, per session and per peer address (http/live.ts). */
        live: z
          .object({
            maxPerUser: z.number().int().min(1).default(8),
            maxPerSession: z.number().int().min(1).default(4),
            maxPerAddress: z.number().int().min(1).default(32),
          })
          .prefault({}),
        /**
         * Read-only API tokens: requests one token may make per minute (a sliding
         * window per token, after the token is found live); past it, 429 with Retry-After.
         */
        apiTokens: z
          .object({ requestsPerMinute: z.number().int().min(1).max(100_000).default(60) })
          .prefault({}),
      })
      .refine((http) => http.headersTimeoutSeconds <= http.requestTimeoutSeconds, {
        message: 'headersTimeoutSeconds must not exceed requestTimeoutSeconds',
        path: ['headersTimeoutSeconds'],
      })
      .prefault({}),
    chains: z.object(CHAIN_SECTIONS).strict().prefault({}),
    stratum: z
      .object({
        host: z.string().min(1).default('0.0.0.0'),
        ports: z.array(stratumPort).min(1).default(DEFAULT_STRATUM_PORTS),
        poolTag: z.string().max(40).default('/Manjam/'),
        maxLineBytes: z.number().int().min(512).max(1_048_576).default(8_192),
        idleTimeoutSeconds: z.number().int().min(10).default(600),
        /** A connection that has not subscribed and authorized within this is closed. */
        authorizeTimeoutSeconds: z.number().int().min(1).default(30),
        /** Lines of one connection waiting behind a pending request (authorize); past this it is closed. */
        maxQueuedLines: z.number().int().min(1).default(64),
        /** Distinct logins one connection may authorize (more answer error 20); also the channels of one V2 connection. */
        maxLoginsPerConnection: z.number().int().min(1).default(32),
        /** Connections of one address on a port; also the V2 channels one address holds on all V2 ports. */
        maxConnectionsPerIp: z.number().int().min(1).default(500),
        /**
         * Open connections of one Stratum port at most; past it a connection is closed as it is
         * accepted. Default: the port's share of the open-files limit (config/fd-budget.ts).
         */
        maxConnectionsPerPort: z.number().int().min(1).optional(),
        /**
         * Fair shares of each port's cap (stratum/listener.ts PortSeats): one address holds
         * `perAddress` of a port's connections at most (default: an eighth of the port's cap, at
         * least 32, never over maxConnectionsPerIp); at the cap, the connection with no valid share
         * for `idleSeconds` the longest is closed to seat a new miner.
         */
        seats: z
          .object({
            perAddress: z.number().int().min(1).optional(),
            idleSeconds: z.number().int().min(10).default(300),
          })
          .prefault({}),
        ban: z
          .object({
            enabled: z.boolean().default(true),
            /** A verdict every this many submits, per connection and per address (all its connections). */
            checkAfterShares: z.number().int().min(1).default(100),
            invalidPercent: z.number().min(1).max(100).default(50),
            /** How long a whole address is banned once enough of its connections misbehaved. */
            durationSeconds: z.number().int().min(1).default(600),
            /** How long an offending connection's fingerprint (address + login) is refused. */
            connectionBanSeconds: z.number().int().min(1).default(60),
            /** Offending connections of one address within offenceWindowSeconds that ban the address. */
            addressBanAfterConnections: z.number().int().min(1).default(3),
            offenceWindowSeconds: z.number().int().min(1).default(600),
          })
          .prefault({}),
        /**
         * Shares waiting for a proof-of-work hash (RandomX, Scrypt), served fairly per address and
         * connection (stratum/fair-work.ts). Past `perConnection` a connection's share is refused
         * unchecked and counted invalid for bans; `total` bounds the memory of all queues.
         */
        powQueue: z
          .object({
            perConnection: z.number().int().min(1).max(10_000).default(32),
            total: z.number().int().min(1).max(1_000_000).default(8_192),
          })
          .prefault({}),
        extranonce2Size: z.number().int().min(2).max(8).default(4),
        /** Stratum V2 ports (`protocol: "v2"`): the pool's authority key and its certificates. */
        v2: z
          .object({
            /**
             * The authority secret key, base58check of 32 bytes (SRI's form). Unset: generated at
             * first start into <dataDir>/sv2-authority.key (mode 0600) and read from there after.
             */
            authoritySecretKey: z.string().min(1).optional(),
            /** Lifetime of the certificate the authority signs for the pool's Noise static key. */
            certificateValiditySeconds: z.number().int().min(60).max(31_536_000).default(86_400),
            /** A connection that has not finished the Noise handshake and SetupConnection in this is closed. */
            handshakeTimeoutSeconds: z.number().min(1).max(120).default(10),
          })
          .prefault({}),
        /** Set (0-255, distinct) on each process when several Stratum processes serve one pool. */
        instanceId: z.number().int().min(0).max(255).optional(),
        /** The share journal (<dataDir>/journal) is fdatasync'ed at most this often (ms); 0 = after every write. */
        journalFsyncMs: z.number().int().min(0).max(60_000).default(1_000),
        /**
         * Rejected shares are counted in memory and written per worker and minute this often
         * (seconds); a crash loses at most this interval's reject counts.
         */
        statsFlushSeconds: z.number().min(0.25).max(300).default(5),
      })
      .prefault({}),
    accounting: z
      .object({
        /** Pool fee per algorithm in basis points (100 = 1.0 %); defaults from the port table. */
        feeBasisPoints: z
          .record(z.enum(ALGORITHM_IDS), z.number().int().min(0).max(10_000))
          .default({ ...DEFAULT_FEE_BASIS_POINTS }),
        /** PPLNS window (and PPS+ fee window) as a multiple of the network's expected hashes per block. */
        pplnsWindowFactor: z.number().positive().max(100).default(2),
        /** Hours between payout runs of the pool's own coins (the assistant and stats page show it). */
        payoutIntervalHours: z.number().positive().default(24),
        payoutAddressHoldHours: z.number().min(0).default(48),
        /** Per pool coin, in coin units: { minimum, default, maximum } (config/payout-thresholds.ts). */
        payoutThresholds: payoutThresholdsSchema,
        /** The UTC hour a settlement day starts (0 = midnight UTC, 03:00 Riyadh); daily settlements and credit days use it. */
        settlementHourUtc: z.number().int().min(0).max(23).default(0),
        /** A payout run still 'intent' or 'sent' (unconfirmed) this long raises an operator alert. */
        stuckPayoutMinutes: z.number().positive().default(90),
        /** An accounting step (credits, blocks, payouts...) failing this many cycles in a row raises an operator alert. */
        alertAfterFailedCycles: z.number().int().min(1).default(6),
        /**
         * Bounded slices (accounting/slices.ts): share rows credited per transaction, and found blocks
         * planned or tracked per slice. The cycle yields between slices so API and health queries
         * waiting on the same database (one connection on embedded PGlite) run, and loops until caught up.
         */
        sliceShares: z.number().int().min(1).max(100_000).default(2_000),
        sliceBlocks: z.number().int().min(1).max(10_000).default(50),
        /** Seconds between accounting cycles (credits, blocks, settlement), counted from the end of the last. */
        cycleSeconds: z.number().min(0.1).max(3_600).default(10),
        /**
         * The money screens say credits are behind when the coin's shares are credited only up to a
         * moment older than this many cycles (cycleSeconds each): accounting is stopped or cannot keep up.
         */
        creditsBehindCycles: z.number().int().min(1).max(10_000).default(6),
      })
      .prefault({}),
    auth: z
      .object({
        /** Secret used to encrypt stored third-party tokens. Generated under dataDir when absent. */
        secret: z.string().min(32).optional(),
        sessionTtlHours: z
          .number()
          .positive()
          .default(24 * 7),
        /**
         * Sign-in throttling (services/auth/throttle.ts). Failed password or code checks are
         * counted per source (the client address, or the known device that sent them) and per
         * account email for unknown devices; past `perAddress` / `perAccount` failures each further
         * one blocks that key for backoffSeconds * 2^(n - limit), at most backoffMaxMinutes, answered
         * 429 with Retry-After. Nothing locks an account: its owner's known devices are never
         * blocked by another source's failures. Counts are forgotten after forgetMinutes without one.
         */
        throttle: z
          .object({
            perAddress: z.number().int().min(1).default(5),
            perAccount: z.number().int().min(1).default(10),
            perDevice: z.number().int().min(1).default(10),
            backoffSeconds: z.number().positive().default(1),
            backoffMaxMinutes: z.number().positive().default(15),
            forgetMinutes: z.number().positive().default(60),
          })
          .prefault({}),
        /** How long a signed "known device" cookie, set after a full sign-in, lasts. */
        knownDeviceDays: z.number().positive().default(180),
        /** How long the link of a "confirm your email" registration mail stays valid (smtp set). */
        confirmEmailHours: z.number().positive().default(24),
        /** How long the link of a "reset your password" mail stays valid (smtp set); it works once. */
        passwordResetMinutes: z.number().positive().max(1_440).default(60),
      })
      .prefault({}),
    assistant: z
      .object({
        llm: z
          .object({
            url: z.url(),
            apiKey: z.string().min(1),
            model: z.string().min(1),
            timeoutMs: z.number().int().default(5_000),
          })
          .optional(),
      })
      .prefault({}),
    smtp: z.object({ url: z.string().min(1), from: z.string().min(3) }).optional(),
    operator: z
      .object({
        /** Where operator alerts (stuck payouts, empty wallet, failing accounting) are emailed when smtp is set. */
        email: z.email().optional(),
        /**
         * How miners reach the operator (an email address, an https:// link or a handle), shown on
         * /support and, when the pool sends no email, where a password would be reset.
         */
        contact: z.string().trim().min(3).max(200).optional(),
      })
      .prefault({}),
    /**
     * Distributed mode (regional Stratum nodes and one accounting core). With natsUrl set, a
     * `--role stratum` process publishes its shares to the JetStream share log instead of its
     * local journal, and the accounting leader stores them in PostgreSQL. Unset: one machine.
     */
    distributed: z
      .object({
        /** NATS server(s) with JetStream, comma separated (nats://host:4222,nats://host2:4222). */
        natsUrl: z.string().min(1).optional(),
        /** This Stratum node's region: the last token of its subjects (manjam.shares.<coin>.<region>). */
        region: z
          .string()
          .regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and "-" (a NATS subject token)')
          .default('default'),
        /** The JetStream stream holding shares, rejects and found blocks of every region. */
        stream: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .default('MANJAM_SHARELOG'),
        /** Stream replicas when the stream is created (3 on a three-server cluster). */
        replicas: z.number().int().min(1).max(5).default(1),
        /** Hours the stream keeps messages (acked or not): a core away this long loses nothing. */
        retentionHours: z.number().positive().max(8_760).default(168),
        /** Shares published but not yet stored by JetStream; past this, submits are refused (error 20). */
        maxBacklogShares: z.number().int().min(1).default(50_000),
        /** One publish attempt waits this long for JetStream's ack before it is sent again. */
        publishTimeoutMs: z.number().int().min(100).max(120_000).default(5_000),
        /**
         * A regional node whose NATS URL is its own leaf server: that server's JetStream domain.
         * Shares then go to the regional stream `<stream>-<domain>` there (acknowledged while the
         * link to the core is cut), which the core's stream sources. Unset: publish to the core.
         */
        domain: z
          .string()
          .regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and "-"')
          .optional(),
        /** The core cluster's JetStream domain (a regional node asks it how far it has sourced). */
        coreDomain: z
          .string()
          .regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and "-"')
          .default('core'),
        /** On the core: the regional leaf domains whose streams the core's stream sources. */
        leafDomains: z
          .array(z.string().regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and "-"'))
          .default([]),
        /** The core's durable consumer that writes shares into PostgreSQL. */
        consumer: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .default('manjam-core-db'),
        /**
         * How long the core's consumer gathers messages before writing them in one transaction.
         * A worker's shares of one 10 s slot gathered together become one row, so at internet
         * scale (a share per ASIC every few seconds) a longer gather means fewer rows
         * (docs/CAPACITY.md); acknowledged shares wait this much longer to be credited.
         */
        consumerGatherMs: z.number().int().min(100).max(60_000).default(1_000),
        /**
         * Length of a slot row (shares/slots.ts): a worker's shares of one slot with one
         * difficulty are one `shares` row. A PPLNS window's ends move by at most one slot of a
         * worker; it divides an hour so that no slot straddles a settlement day.
         */
        shareSlotSeconds: z
          .number()
          .int()
          .min(1)
          .max(600)
          .refine((n) => 3_600 % n === 0, 'a whole number of slots per hour (10, 30, 60 …)')
          .default(10),
        /** Messages the core's consumer writes at most per transaction. */
        consumerPullMessages: z.number().int().min(1).max(65_536).default(512),
        /**
         * A regional Stratum node: take every enabled coin's work from the core's job feed instead
         * of a node of its own (a coin's configured nodes then only receive found blocks too).
         */
        jobsFromCore: z.boolean().default(false),
        /** The JetStream stream of the job feed (last message per subject; see apps/server/src/jobfeed/). */
        jobsStream: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .default('MANJAM_JOBS'),
      })
      .prefault({}),
    /** Worker-offline, hashrate-drop, block and payout alerts (see config/alerts.ts). */
    alerts: alertSettingsSchema.prefault({}),
    rigManagement: z
      .object({
        baseUrl: z.url().default('https://api2.hiveos.farm/api/v2'),
        timeoutMs: z.number().int().default(5_000),
      })
      .prefault({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type StratumPortConfig = Config['stratum']['ports'][number];
