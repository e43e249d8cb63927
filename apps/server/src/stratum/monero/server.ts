/**
 * The Monero Stratum dialect (XMRig and others) on one port: `login`, `getjob`, `submit`,
 * `keepalived`, and `job` notifications. Each connection gets its own 4-byte extra nonce
 * (ExtranonceAllocator) written into the template's reserved bytes, so every job carries its
 * own hashing blob. A submit is judged in this order: logged in and the session id matches;
 * well-formed (nonce 8 hex, result 64 hex); job known ("Invalid job id") and not stale ("Stale
 * job"); nonce not seen on the job ("Duplicate share"); the claimed result meets the job's
 * difficulty ("Low difficulty share", answered without hashing); the hash recomputed with
 * RandomX equals the claim ("Invalid result": the miner's `result` is never trusted); then
 * accepted, and a hash under the network difficulty is a block (built, `submit_block`, confirmed
 * against the node's tip). Replies leave in request order (ReplyOrder), job notifications at once.
 * Framing, bans, vardiff and the share sink are the V1 port's pieces (in the pool: the same BanList and
 * ExtranonceAllocator objects).
 *
 * In the pool (stratum/monero/start.ts) it takes the process's ShareWriter as its sink, the
 * pool's LoginResolver for `username[.worker]` logins (wallet addresses are checked here), the
 * XMR hashrate tracker and the pool's events (worker.connected/disconnected).
 *
 * Left (issue 18): template refresh on new mempool transactions and over ZMQ (`zmqPubUrl`),
 * nicehash nonce ranges, TLS ports, full-dataset mode by config, metrics of the hash queue.
 */
import net from 'node:net';
import {
  isMoneroAddress,
  type MoneroNetwork,
  moneroBlockId,
  moneroDifficultyToTarget,
  moneroHashingBlob,
  moneroHashMeetsDifficulty,
  moneroHashDifficulty,
  moneroTargetToDifficulty,
  parseMoneroBlock,
  withMoneroNonce,
  writeMoneroExtraNonce,
} from '@manjam/protocol/monero';
import { splitWorkerName } from '@manjam/protocol';
import type { RandomXPool } from '@manjam/randomx';
import type { Logger } from 'pino';
import type { CoinId, Config, PayoutScheme } from '../../config/index.js';
import type { PoolEvents } from '../../events.js';
import type { HashrateTracker } from '../../shares/hashrate.js';
import type { LoginOutcome } from '../auth.js';
import type { HeldSocket } from '../../shares/journal.js';
import {
  minerRef,
  type AcceptedShare,
  type FoundBlockRecord,
  type MinerRef,
  type RejectReason,
} from '../../shares/types.js';
import { WORKER_NAME } from '../auth.js';
import { BanList, resetWindow, type AddressRecord, type ShareWindow } from '../bans.js';
import { ExtranonceAllocator } from '../extranonce.js';
import { FOUND_BLOCK_STATUS } from '../found-block.js';
import { LineFramer } from '../framing.js';
import { passwordDifficulty } from '../handlers.js';
import { ReplyOrder } from '../reply-order.js';
import { Vardiff, type VardiffSettings } from '../vardiff.js';
import { MONERO_RESERVE_SIZE, type MoneroTemplate, type MoneroTemplateSource } from './template-source.js';

export const XMR = 'XMR' satisfies CoinId;
export type MoneroMinerRef = MinerRef<typeof XMR>;
export type MoneroAcceptedShare = Omit<AcceptedShare, 'miner'> & { miner: MoneroMinerRef };
export type MoneroFoundBlock = Omit<FoundBlockRecord, 'miner'> & { miner: MoneroMinerRef };

/** The ShareSink's methods this server uses, for a coin not in CoinId yet (see the top comment). */
export interface MoneroShareSink {
  /** Call BEFORE writing the OK reply: the sink holds the socket corked until the share is durable. */
  addAccepted(share: MoneroAcceptedShare, socket?: HeldSocket): void;
  addRejected(miner: MoneroMinerRef, reason: RejectReason, atMs: number): void;
  addBlock(block: MoneroFoundBlock): Promise<void>;
  refusal(): string | undefined;
}

export type MoneroStratumSettings = Pick<
  Config['stratum'],
  | 'maxLineBytes'
  | 'maxConnectionsPerIp'
  | 'idleTimeoutSeconds'
  | 'authorizeTimeoutSeconds'
  | 'ban'
  | 'instanceId'
>;

export interface MoneroStratumOptions {
  /** 0 = any free port. */
  port: number;
  host: string;
  network: MoneroNetwork;
  scheme: PayoutScheme;
  vardiff: VardiffSettings;
  stratum: MoneroStratumSettings;
  source: MoneroTemplateSource;
  randomx: RandomXPool;
  sink: MoneroShareSink;
  logger: Logger;
  /** Shares being hashed at once, pool-wide; past it a submit is answered "Server busy" (default 32 per RandomX thread). */
  maxPendingHashes?: number;
  /** The pool around the port (absent in the standalone dialect tests). */
  pool?: MoneroPoolHooks;
  /** The process's ban list and extranonce space, shared with the V1 ports (default: the port's own). */
  bans?: BanList;
  allocator?: ExtranonceAllocator;
}

/** What the pool lends the XMR port: account logins, live hashrate, events. */
export interface MoneroPoolHooks {
  /** A login that is not a Monero address: `<Manjam username>[.worker]` (the LoginResolver). */
  resolveAccount(login: string): Promise<LoginOutcome>;
  hashrate: HashrateTracker;
  events: PoolEvents;
}

export const MONERO_REJECTIONS = [
  'stale',
  'duplicate',
  'low_difficulty',
  'invalid',
  'unauthorized',
  'busy',
] as const;
export type MoneroRejection = (typeof MONERO_REJECTIONS)[number];

/** Jobs a connection keeps answering for (older ones are "Invalid job id"). */
const MAX_JOBS = 4;
/** Past this many bytes waiting to be sent, a miner that does not read is dropped. */
const MAX_WRITE_BACKLOG = 512 * 1024;
/** Past this many replies held behind shares being hashed, a pipelining miner is dropped. */
const MAX_HELD_LINES = 1_024;
const ALGO = 'rx/0';
/** How often timeouts, the vardiff sweep for silent miners and expired bans are looked at (as the V1 ports). */
const SWEEP_MS = 5_000;

type Id = number | string | null;

interface MoneroJob {
  id: string;
  template: MoneroTemplate;
  /** The template blob with this connection's extra nonce in the reserved bytes. */
  blockBlob: Uint8Array;
  hashingBlob: Uint8Array;
  nonceOffset: number;
  target: string;
  /** The difficulty the miner works to for `target`. */
  difficulty: bigint;
  nonces: Set<number>;
}

const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

class MoneroSession {
  readonly id: string;
  miner: MoneroMinerRef | undefined;
  login = '';
  agent = '';
  /** An account login is being looked up. */
  loggingIn = false;
  readonly vardiff: Vardiff;
  readonly jobs = new Map<string, MoneroJob>();
  private jobCounter = 0;
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  readonly connectedMs = Date.now();
  lastReceivedMs = this.connectedMs;
  closed = false;
  readonly order: ReplyOrder;

  constructor(
    readonly socket: net.Socket,
    readonly address: AddressRecord,
    readonly extraNonce: Buffer,
    vardiff: VardiffSettings,
    private readonly logger: Logger,
  ) {
    this.id = extraNonce.toString('hex');
    this.vardiff = new Vardiff(vardiff, 1, Date.now());
    this.order = new ReplyOrder(
      (line) => this.write(line),
      () => undefined,
    );
  }

  reply(id: Id, result: unknown, ticket?: number): void {
    this.answer(
      `{"id":${JSON.stringify(id)},"jsonrpc":"2.0","error":null,"result":${JSON.stringify(result)}}\n`,
      ticket,
    );
  }

  error(id: Id, message: string, ticket?: number): void {
    this.answer(
      `{"id":${JSON.stringify(id)},"jsonrpc":"2.0","error":${JSON.stringify({ code: -1, message })},"result":null}\n`,
      ticket,
    );
  }

  /** A new job on `template` at the session's current difficulty. */
  makeJob(template: MoneroTemplate): MoneroJob {
    const extra = Buffer.alloc(MONERO_RESERVE_SIZE);
    this.extraNonce.copy(extra);
    const blockBlob = writeMoneroExtraNonce(
      template.blob,
      template.reservedOffset,
      MONERO_RESERVE_SIZE,
      extra,
    );
    const block = parseMoneroBlock(blockBlob);
    const target = moneroDifficultyToTarget(BigInt(Math.max(1, Math.round(this.vardiff.difficulty))));
    const job: MoneroJob = {
      id: `${template.seq.toString(36)}.${(++this.jobCounter).toString(36)}.${this.id}`,
      template,
      blockBlob,
      hashingBlob: moneroHashingBlob(blockBlob, block),
      nonceOffset: block.header.nonceOffset,
      target,
      difficulty: moneroTargetToDifficulty(target),
      nonces: new Set(),
    };
    this.jobs.set(job.id, job);
    for (const old of this.jobs.keys()) {
      if (this.jobs.size <= MAX_JOBS) break;
      this.jobs.delete(old);
    }
    return job;
  }

  /** Sends a job notification at once (ahead of replies still owed: a new tip never waits behind shares). */
  notifyJob(job: MoneroJob): void {
    this.write(`{"jsonrpc":"2.0","method":"job","params":${JSON.stringify(jobParams(job))}}\n`);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug({ session: this.id, ip: this.address.ip, reason }, 'XMR stratum connection closed');
    const socket = this.socket;
    // Replies already written leave first, and after the sink's flush of the shares they accept.
    process.nextTick(() => {
      while (socket.writableCorked > 0) socket.uncork();
      socket.destroy();
    });
  }

  private answer(line: string, ticket: number | undefined): void {
    if (this.closed) return;
    if (ticket !== undefined) this.order.answer(ticket, line);
    else this.order.send(line);
    if (this.order.held > MAX_HELD_LINES) this.close('too many requests in flight');
  }

  private write(line: string): void {
    if (this.closed) return;
    if (this.socket.writableLength > MAX_WRITE_BACKLOG) {
      this.close('not reading');
      return;
    }
    this.socket.write(line);
  }
}

function jobParams(job: MoneroJob): Record<string, unknown> {
  return {
    blob: hex(job.hashingBlob),
    job_id: job.id,
    target: job.target,
    height: job.template.height,
    seed_hash: job.template.seedHashHex,
    algo: ALGO,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class MoneroStratumServer {
  readonly server: net.Server;
  readonly bans: BanList;
  readonly stats: { accepted: number; blocks: number; rejected: Record<MoneroRejection, number> } = {
    accepted: 0,
    blocks: 0,
    rejected: { stale: 0, duplicate: 0, low_difficulty: 0, invalid: 0, unauthorized: 0, busy: 0 },
  };
  private readonly sessions = new Set<MoneroSession>();

  /** Open connections (logged in or not). */
  get connections(): number {
    return this.sessions.size;
  }
  private readonly allocator: ExtranonceAllocator;
  private readonly maxPendingHashes: number;
  private pendingHashes = 0;
  private readonly pendingBlocks = new Set<Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: MoneroStratumOptions) {
    this.bans = options.bans ?? new BanList(options.stratum.ban);
    this.allocator = options.allocator ?? new ExtranonceAllocator(undefined, options.stratum.instanceId);
    this.maxPendingHashes = options.maxPendingHashes ?? options.randomx.threads * 32;
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.on('error', (error) => options.logger.error({ err: error }, 'XMR stratum port error'));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    options.source.onTemplate((template) => {
      // The next epoch's cache is built before its first share (light mode: seconds per seed).
      if (template.nextSeedHash)
        options.randomx
          .prepare(template.nextSeedHash)
          .catch((error: unknown) =>
            options.logger.warn({ err: error }, 'preparing the next RandomX seed failed'),
          );
      for (const session of this.sessions) if (session.miner) session.notifyJob(session.makeJob(template));
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host: this.options.host, port: this.options.port, backlog: 4096 }, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : this.options.port);
      });
    });
  }

  /** Stops listening, closes every connection and waits for blocks being submitted. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.close('server stopping');
    await closed;
    await Promise.all([...this.pendingBlocks]);
  }

  private accept(socket: net.Socket): void {
    const { stratum, logger } = this.options;
    const ip = socket.remoteAddress ?? 'unknown';
    socket.on('error', () => undefined);
    const address = this.bans.admit(ip, stratum.maxConnectionsPerIp);
    if (!address || !this.options.source.current) {
      if (address) this.bans.release(address);
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    const session = new MoneroSession(
      socket,
      address,
      this.allocator.allocate(),
      this.options.vardiff,
      logger,
    );
    this.sessions.add(session);
    const framer = new LineFramer(stratum.maxLineBytes, (line) => this.onLine(session, line));
    socket.on('data', (text: string) => {
      session.lastReceivedMs = Date.now();
      socket.cork();
      const result = framer.push(text);
      socket.uncork();
      if (result === 'overflow') session.close('line over the cap');
    });
    socket.on('close', () => {
      session.closed = true;
      if (session.miner) {
        const identity = session.miner.identity;
        this.options.pool?.events.emit('worker.disconnected', {
          coin: XMR,
          workerId: null,
          userId: identity.kind === 'user' ? identity.userId : null,
          login: session.login,
        });
      }
      this.sessions.delete(session);
      this.allocator.release(session.extraNonce);
      this.bans.release(address);
    });
  }

  /** Login and idle timeouts, lower difficulty for silent miners, expired bans. */
  private sweep(): void {
    const now = Date.now();
    const { idleTimeoutSeconds, authorizeTimeoutSeconds } = this.options.stratum;
    const template = this.options.source.current;
    for (const session of this.sessions) {
      if (!session.miner) {
        if (now - session.connectedMs > authorizeTimeoutSeconds * 1000)
          session.close('not logged in in time');
        continue;
      }
      if (now - session.lastReceivedMs > idleTimeoutSeconds * 1000) {
        session.close('idle');
        continue;
      }
      // Monero has no set_difficulty: a new difficulty comes with a new job.
      if (session.vardiff.onIdle(now) !== undefined && template) session.notifyJob(session.makeJob(template));
    }
    this.bans.sweep(now);
  }

  private onLine(session: MoneroSession, line: string): boolean {
    if (session.closed) return false;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      session.close('not JSON');
      return false;
    }
    if (!isObject(message)) {
      session.close('not a JSON-RPC object');
      return false;
    }
    const id: Id = typeof message.id === 'number' || typeof message.id === 'string' ? message.id : null;
    const params = isObject(message.params) ? message.params : {};
    try {
      switch (message.method) {
        case 'login':
          this.login(session, id, params);
          break;
        case 'getjob':
          this.getjob(session, id, params);
          break;
        case 'submit':
          this.submit(session, id, params);
          break;
        case 'keepalived':
          session.reply(id, { status: 'KEEPALIVED' });
          break;
        default:
          // A reply to nothing we asked, or a method of another dialect.
          if (typeof message.method === 'string')
            session.error(id, `Unknown method ${message.method.slice(0, 64)}`);
      }
    } catch (error) {
      this.options.logger.error({ err: error, session: session.id }, 'XMR stratum handler failed');
      session.error(id, 'Internal error');
    }
    return !session.closed;
  }

  private login(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    const { login, pass, agent } = params;
    if (typeof login !== 'string') return session.error(id, 'Missing login');
    if (session.miner || session.loggingIn) return session.error(id, 'Already logged in');
    if (this.bans.isLoginBanned(session.address.ip, login)) {
      session.error(id, 'Worker refused for a while: too many invalid shares');
      session.close('banned login');
      return;
    }
    const { account, worker } = splitWorkerName(login.trim());
    const password = typeof pass === 'string' ? pass : undefined;
    const agentText = typeof agent === 'string' ? agent.slice(0, 128) : '';
    if (WORKER_NAME.test(worker) && isMoneroAddress(account, this.options.network)) {
      const miner = minerRef(XMR, { kind: 'wallet', address: account }, worker);
      return this.loggedIn(session, id, login, miner, password, agentText);
    }
    const pool = this.options.pool;
    if (!pool)
      return this.refuseLogin(session, id, `Invalid address: not a Monero ${this.options.network} address`);
    // An account login (`username.worker`): looked up while later lines wait their turn.
    session.loggingIn = true;
    const ticket = session.order.ticket();
    pool.resolveAccount(login).then(
      (outcome) => {
        session.loggingIn = false;
        if (session.closed) return;
        if (outcome.ok && outcome.miner.coin === XMR)
          return this.loggedIn(
            session,
            id,
            login,
            { ...outcome.miner, coin: XMR },
            password,
            agentText,
            ticket,
          );
        const busy = !outcome.ok && outcome.reason === 'lookup-failed';
        this.refuseLogin(
          session,
          id,
          busy
            ? 'Server busy, try again'
            : `Unknown login: neither a Monero ${this.options.network} address nor a Manjam username`,
          ticket,
        );
      },
      (error: unknown) => {
        session.loggingIn = false;
        this.options.logger.error({ err: error }, 'XMR account login failed');
        this.refuseLogin(session, id, 'Server busy, try again', ticket);
      },
    );
  }

  private refuseLogin(session: MoneroSession, id: Id, message: string, ticket?: number): void {
    session.error(id, message, ticket);
    session.close('invalid login');
  }

  private loggedIn(
    session: MoneroSession,
    id: Id,
    login: string,
    miner: MoneroMinerRef,
    password: string | undefined,
    agent: string,
    ticket?: number,
  ): void {
    session.login = login;
    session.agent = agent;
    session.miner = miner;
    const asked = passwordDifficulty(password);
    if (asked !== undefined) session.vardiff.set(asked, Date.now());
    const job = session.makeJob(this.options.source.current as MoneroTemplate);
    session.reply(
      id,
      { id: session.id, job: jobParams(job), extensions: ['keepalive'], status: 'OK' },
      ticket,
    );
    const identity = miner.identity;
    this.options.pool?.events.emit('worker.connected', {
      coin: XMR,
      workerId: null,
      userId: identity.kind === 'user' ? identity.userId : null,
      login,
    });
  }

  private getjob(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    if (!session.miner || params.id !== session.id) return session.error(id, 'Unauthenticated');
    session.reply(id, jobParams(session.makeJob(this.options.source.current as MoneroTemplate)));
  }

  private submit(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    const miner = session.miner;
    if (!miner || params.id !== session.id)
      return this.refuse(session, id, undefined, 'Unauthenticated', 'unauthorized');
    const { job_id: jobId, nonce: nonceHex, result } = params;
    if (
      typeof jobId !== 'string' ||
      typeof nonceHex !== 'string' ||
      !/^[0-9a-fA-F]{8}$/.test(nonceHex) ||
      typeof result !== 'string' ||
      !/^[0-9a-fA-F]{64}$/.test(result)
    )
      return this.refuse(session, id, miner, 'Malformed share', 'invalid');
    const job = session.jobs.get(jobId);
    if (!job) return this.refuse(session, id, miner, 'Invalid job id', 'invalid');
    if (job.template.stale) return this.refuse(session, id, miner, 'Stale job', 'stale');
    const nonce = Buffer.from(nonceHex, 'hex').readUInt32LE(0);
    if (job.nonces.has(nonce)) return this.refuse(session, id, miner, 'Duplicate share', 'duplicate');
    const claimed = Buffer.from(result, 'hex');
    // What the miner claims already misses the target: no need to spend a RandomX hash on it.
    if (!moneroHashMeetsDifficulty(claimed, job.difficulty))
      return this.refuse(session, id, miner, 'Low difficulty share', 'low_difficulty');
    const refusal = this.options.sink.refusal();
    if (refusal !== undefined) return this.refuse(session, id, miner, refusal, 'busy');
    if (this.pendingHashes >= this.maxPendingHashes)
      return this.refuse(session, id, miner, 'Server busy, share not checked', 'busy');
    this.pendingHashes++;
    const ticket = session.order.ticket();
    const hashingBlob = withMoneroNonce(job.hashingBlob, job.nonceOffset, nonce);
    this.options.randomx.hash(job.template.seedHash, hashingBlob).then(
      (hash) => {
        this.pendingHashes--;
        this.judge(session, id, ticket, miner, job, nonce, claimed, hash, hashingBlob);
      },
      (error: unknown) => {
        this.pendingHashes--;
        this.options.logger.error({ err: error }, 'RandomX hash failed');
        this.refuse(session, id, miner, 'Server busy, share not checked', 'busy', ticket);
      },
    );
  }

  private judge(
    session: MoneroSession,
    id: Id,
    ticket: number,
    miner: MoneroMinerRef,
    job: MoneroJob,
    nonce: number,
    claimed: Uint8Array,
    hash: Uint8Array,
    hashingBlob: Uint8Array,
  ): void {
    if (!Buffer.from(hash).equals(claimed))
      return this.refuse(session, id, miner, 'Invalid result', 'invalid', ticket);
    // The same nonce may have been judged while this one was hashed.
    if (job.nonces.has(nonce)) return this.refuse(session, id, miner, 'Duplicate share', 'duplicate', ticket);
    job.nonces.add(nonce);
    const { sink, scheme } = this.options;
    const now = Date.now();
    const template = job.template;
    const difficulty = Number(job.difficulty);
    this.stats.accepted++;
    // Given to the sink first: it holds the socket corked until the share is durable.
    sink.addAccepted(
      {
        miner,
        difficulty,
        actualDifficulty: Number(moneroHashDifficulty(hash)),
        networkDifficulty: Number(template.networkDifficulty),
        height: template.height,
        scheme,
        atMs: now,
      },
      session.socket,
    );
    session.reply(id, { status: 'OK' }, ticket);
    const tracker = this.options.pool?.hashrate;
    if (tracker) {
      const actual = Number(moneroHashDifficulty(hash));
      tracker.add(miner.workerKey, difficulty, actual, now);
      tracker.add(miner.payeeKey, difficulty, actual, now);
      tracker.add('pool', difficulty, actual, now);
    }
    this.countForBan(session, false);
    const retarget = session.vardiff.onShare(now);
    if (retarget !== undefined && !template.stale) session.notifyJob(session.makeJob(template));
    if (moneroHashMeetsDifficulty(hash, template.networkDifficulty))
      this.foundBlock(miner, job, nonce, hashingBlob, difficulty);
  }

  private foundBlock(
    miner: MoneroMinerRef,
    job: MoneroJob,
    nonce: number,
    hashingBlob: Uint8Array,
    shareDifficulty: number,
  ): void {
    const { source, sink, logger, scheme } = this.options;
    const template = job.template;
    const hash = hex(moneroBlockId(hashingBlob));
    const blockHex = hex(withMoneroNonce(job.blockBlob, job.nonceOffset, nonce));
    const foundMs = Date.now();
    this.stats.blocks++;
    logger.info(
      { coin: XMR, height: template.height, hash, login: miner.workerKey },
      'block found; submitting',
    );
    const work = (async () => {
      const result = await source.submitBlock(blockHex, { height: template.height, hash });
      logger.info(
        { coin: XMR, height: template.height, hash, status: result.status, node: result.nodeResult },
        'block submitted',
      );
      await sink.addBlock({
        miner,
        height: template.height,
        hash,
        scheme,
        // Not split by get_block_template: the accounting step derives the base reward.
        reward: template.reward,
        subsidy: template.reward,
        fees: 0n,
        networkDifficulty: Number(template.networkDifficulty),
        shareDifficulty,
        status: FOUND_BLOCK_STATUS[result.status],
        submitResult: result.nodeResult,
        atMs: foundMs,
      });
    })().catch((error: unknown) => logger.error({ err: error, hash }, 'recording a found XMR block failed'));
    this.pendingBlocks.add(work);
    void work.finally(() => this.pendingBlocks.delete(work));
  }

  private refuse(
    session: MoneroSession,
    id: Id,
    miner: MoneroMinerRef | undefined,
    message: string,
    kind: MoneroRejection,
    ticket?: number,
  ): void {
    session.error(id, message, ticket);
    this.stats.rejected[kind]++;
    if (miner && kind !== 'busy' && kind !== 'unauthorized')
      this.options.sink.addRejected(miner, kind, Date.now());
    this.countForBan(session, kind !== 'stale' && kind !== 'busy');
  }

  /** The V1 ban rules (ban-judge.ts) on this port's sessions: cut mostly-invalid connections, then the address. */
  private countForBan(session: MoneroSession, invalid: boolean): void {
    const { window, address } = session;
    window.submits++;
    address.submits++;
    if (invalid) {
      window.invalid++;
      address.invalid++;
    }
    const bans = this.bans;
    if (!bans.due(window) && !bans.due(address)) return;
    const offenders = new Set<MoneroSession>();
    if (bans.due(window)) {
      if (bans.mostlyInvalid(window)) offenders.add(session);
      else resetWindow(window);
    }
    if (bans.due(address)) {
      if (bans.mostlyInvalid(address))
        for (const other of this.sessions)
          if (other.address === address && bans.mostlyInvalid(other.window)) offenders.add(other);
      resetWindow(address);
    }
    const now = Date.now();
    let addressBanned = false;
    for (const offender of offenders) {
      addressBanned = bans.offend(address, [offender.login], now) || addressBanned;
      this.options.logger.warn(
        {
          ip: address.ip,
          login: offender.login,
          submits: offender.window.submits,
          invalid: offender.window.invalid,
        },
        'closing an XMR connection whose shares are mostly invalid',
      );
      offender.close('mostly invalid shares');
    }
    if (addressBanned)
      for (const other of this.sessions) if (other.address === address) other.close('address banned');
  }
}
