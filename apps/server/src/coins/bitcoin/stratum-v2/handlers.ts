// The Mining protocol messages a Stratum V2 port answers (SV2 §3.5, §5.3): SetupConnection first
// (Mining only, version 2; work selection refused), then standard and extended channels opened
// for a login checked like V1's (`account.worker` / `address.worker`, the kit's resolver and
// bans), their submits judged by V1's own code (submit.ts judgeSubmit), UpdateChannel and
// CloseChannel. Any other message from a miner, or a channel message before SetupConnection,
// closes the connection.
import { targetToDifficulty } from '@manjam/protocol';
import type { Sv2MessageOf, Sv2Message } from '@manjam/protocol/sv2';
import { judgeSubmit } from '../stratum/submit.js';
import { Sv2Channel } from './channel.js';
import type { Sv2Link as Sv2Connection } from './runtime.js';
import { jobIdOf, targetToU256, u256ToTarget } from './work.js';

/** The protocol version this port speaks. */
export const SV2_VERSION = 2;
const MINING_PROTOCOL = 0;
/** SetupConnection flags of the Mining protocol (§5.3.1) this port can honour. */
const FLAG_REQUIRES_STANDARD_JOBS = 1 << 0;
const FLAG_REQUIRES_VERSION_ROLLING = 1 << 2;
const SUPPORTED_FLAGS = FLAG_REQUIRES_STANDARD_JOBS | FLAG_REQUIRES_VERSION_ROLLING;

export function handleMessage(conn: Sv2Connection, message: Sv2Message): void {
  if (message.type === 'SetupConnection') return setup(conn, message);
  if (!conn.setUp) return conn.fault('protocol', `${message.type} before SetupConnection`);
  switch (message.type) {
    case 'OpenStandardMiningChannel':
      return opening(conn, openChannel(conn, message, 'standard'));
    case 'OpenExtendedMiningChannel':
      return opening(conn, openChannel(conn, message, 'extended'));
    case 'SubmitSharesStandard':
    case 'SubmitSharesExtended':
      return submit(conn, message);
    case 'UpdateChannel':
      return updateChannel(conn, message);
    case 'CloseChannel':
      return closeChannel(conn, message.channelId);
    default:
      return conn.fault('protocol', `${message.type} is not a message a miner sends`);
  }
}

/** An open waits for its login lookup; if it fails (the database, the extranonce space), this connection goes. */
function opening(conn: Sv2Connection, pending: Promise<void>): void {
  pending.catch((error: unknown) => {
    conn.runtime.pool.logger.warn({ err: error, connection: conn.id }, 'stratum v2 channel open failed');
    conn.close('channel open failed');
  });
}

function setup(conn: Sv2Connection, m: Sv2MessageOf<'SetupConnection'>): void {
  if (conn.setUp) return conn.fault('protocol', 'SetupConnection twice');
  const refuse = (errorCode: string, flags = 0): void => {
    conn.send({ type: 'SetupConnectionError', flags, errorCode });
    conn.fault('protocol', `SetupConnection refused (${errorCode})`);
  };
  if (m.protocol !== MINING_PROTOCOL) return refuse('unsupported-protocol');
  if (m.minVersion > SV2_VERSION || m.maxVersion < SV2_VERSION) return refuse('protocol-version-mismatch');
  const unsupported = (m.flags & ~SUPPORTED_FLAGS) >>> 0;
  if (unsupported !== 0) return refuse('unsupported-feature-flags', unsupported);
  conn.setUp = true;
  conn.userAgent = [m.vendor, m.firmware]
    .filter((s) => s.length > 0)
    .join('/')
    .slice(0, 128);
  conn.send({ type: 'SetupConnectionSuccess', usedVersion: SV2_VERSION, flags: 0 });
}

type OpenMessage = Sv2MessageOf<'OpenStandardMiningChannel'> | Sv2MessageOf<'OpenExtendedMiningChannel'>;

/** The max_target of a miner that leaves its target to the pool: all ones (SRI's translator with its vardiff off). */
const ANY_TARGET = (1n << 256n) - 1n;

/**
 * Channels one V2 connection may open: V1's logins per connection (a proxy opens one per miner
 * behind it, as a V1 proxy authorizes one login per miner).
 */
export function channelsPerConnection(conn: Sv2Connection): number {
  return conn.runtime.pool.config.stratum.maxLoginsPerConnection;
}

/**
 * Channels one address may hold on every V2 port together: V1's connections per address, since
 * a V2 channel costs the pool what a V1 connection does (its own jobs, vardiff and share window).
 */
export function channelsPerAddress(conn: Sv2Connection): number {
  return conn.runtime.pool.config.stratum.maxConnectionsPerIp;
}

async function openChannel(
  conn: Sv2Connection,
  m: OpenMessage,
  kind: 'standard' | 'extended',
): Promise<void> {
  const runtime = conn.runtime;
  const { pool } = runtime;
  const refuse = (errorCode: string): void =>
    conn.send({ type: 'OpenMiningChannelError', requestId: m.requestId, errorCode });
  const extranonce2Size = pool.config.stratum.extranonce2Size;
  const byAddress = runtime.channelsByAddress;
  if (
    conn.channels.size + conn.opening >= channelsPerConnection(conn) ||
    (byAddress.get(conn.ip) ?? 0) >= channelsPerAddress(conn)
  )
    return refuse('too-many-channels');
  if (m.type === 'OpenExtendedMiningChannel' && m.minExtranonceSize > extranonce2Size)
    return refuse('min-extranonce-size-too-large');
  const maxTarget = u256ToTarget(m.maxTarget);
  if (maxTarget === 0n) return refuse('max-target-out-of-range');
  const login = m.userIdentity;
  if (pool.bans.isLoginBanned(conn.ip, login)) return refuse('unknown-user');
  // Counted toward both caps from here; given back below unless the channel opens.
  conn.opening++;
  countChannel(conn, 1);
  let opened = false;
  try {
    let outcome: Awaited<ReturnType<typeof pool.resolver.resolve>>;
    try {
      outcome = await pool.resolver.resolve(login, runtime.coin, runtime.params, conn.address);
    } finally {
      conn.opening--;
    }
    if (conn.closed) return;
    if (!outcome.ok) return refuse(outcome.reason === 'lookup-failed' ? 'server-busy' : 'unknown-user');
    const channelId = conn.nextChannelId++;
    const channel = new Sv2Channel(
      conn,
      runtime,
      channelId,
      kind,
      pool.allocator.allocate(),
      Buffer.alloc(extranonce2Size),
      outcome.miner,
      login,
    );
    channel.userAgent = conn.userAgent;
    if (!fitTarget(channel, maxTarget, m.nominalHashRate)) {
      pool.allocator.release(channel.extranonce1);
      return refuse('max-target-out-of-range');
    }
    conn.channels.set(channelId, channel);
    opened = true;
    pool.sessions.add(channel);
    const target = targetToU256(channel.target);
    const prefix = channel.extranoncePrefix;
    if (kind === 'extended')
      conn.send({
        type: 'OpenExtendedMiningChannelSuccess',
        requestId: m.requestId,
        channelId,
        target,
        extranonceSize: extranonce2Size,
        extranoncePrefix: prefix,
        groupChannelId: 0,
      });
    else
      conn.send({
        type: 'OpenStandardMiningChannelSuccess',
        requestId: m.requestId,
        channelId,
        target,
        extranoncePrefix: prefix,
        groupChannelId: 0,
      });
    const identity = outcome.miner.identity;
    // Shown to the account only for its own miner, as on V1 (stratum/strangers.ts).
    if (pool.resolver.owners.showConnected(outcome.miner))
      pool.events.emit('worker.connected', {
        coin: runtime.coin,
        workerId: null,
        userId: identity.kind === 'user' ? identity.userId : null,
        login,
        payeeKey: outcome.miner.payeeKey,
        worker: outcome.miner.worker,
        agent: conn.userAgent,
      });
    const job = runtime.jobs.current;
    if (job) channel.sendJob(job);
  } finally {
    if (!opened) countChannel(conn, -1);
  }
}

/** Adds `delta` to the channels (open or opening) of the connection's address. */
function countChannel(conn: Sv2Connection, delta: number): void {
  const byAddress = conn.runtime.channelsByAddress;
  const n = (byAddress.get(conn.ip) ?? 0) + delta;
  if (n > 0) byAddress.set(conn.ip, n);
  else byAddress.delete(conn.ip);
}

/**
 * Starts the channel within the miner's max_target. A miner that names a target within the
 * port's bounds (a proxy with its own vardiff: SRI's translator asks for the target it gives its
 * miners) is held at it; any other (all ones, or easier than the port's minimum) gets the pool's
 * vardiff, floored at that target and started near its nominal hash rate (a share each vardiff
 * target interval). False when the port's vardiff cannot meet max_target.
 */
function fitTarget(channel: Sv2Channel, maxTarget: bigint, nominalHashRate: number): boolean {
  if (!(maxTarget < ANY_TARGET && channel.followMinerTarget(maxTarget))) {
    channel.vardiff.setMinerMinimum(targetToDifficulty(maxTarget, channel.port.algorithm));
    followHashRate(channel, nominalHashRate);
    channel.announceDifficulty(channel.vardiff.difficulty);
  }
  return channel.target <= maxTarget;
}

/** The pool's vardiff jumps to a share each target interval at `nominalHashRate` (when one is given). */
function followHashRate(channel: Sv2Channel, nominalHashRate: number): void {
  if (!Number.isFinite(nominalHashRate) || nominalHashRate <= 0) return;
  const { targetSeconds } = channel.port.config.vardiff;
  channel.vardiff.set((nominalHashRate * targetSeconds) / 2 ** 32, Date.now());
}

type SubmitMessage = Sv2MessageOf<'SubmitSharesStandard'> | Sv2MessageOf<'SubmitSharesExtended'>;

function submit(conn: Sv2Connection, m: SubmitMessage): void {
  const channel = conn.channels.get(m.channelId);
  const extended = m.type === 'SubmitSharesExtended';
  if (!channel || (channel.kind === 'extended') !== extended) {
    conn.send({
      type: 'SubmitSharesError',
      channelId: m.channelId,
      sequenceNumber: m.sequenceNumber,
      errorCode: 'invalid-channel-id',
    });
    return;
  }
  judgeSubmit(channel, m.sequenceNumber, channel.miner, {
    jobId: jobIdOf(m.jobId),
    extranonce1: channel.extranonce1,
    extranonce2: extended ? Buffer.from(m.extranonce) : channel.standardExtranonce2,
    ntime: m.ntime,
    nonce: m.nonce,
    version: { kind: 'whole', value: m.version },
  });
}

/**
 * UpdateChannel: a miner that names a target within the port's bounds (a proxy whose vardiff
 * moved) is held at the new one and told by SetTarget; any other moves the pool's vardiff to its
 * new nominal hash rate, floored at its max_target.
 */
function updateChannel(conn: Sv2Connection, m: Sv2MessageOf<'UpdateChannel'>): void {
  const channel = conn.channels.get(m.channelId);
  const refuse = (errorCode: string): void =>
    conn.send({ type: 'UpdateChannelError', channelId: m.channelId, errorCode });
  if (!channel) return refuse('invalid-channel-id');
  const maxTarget = u256ToTarget(m.maximumTarget);
  if (maxTarget === 0n) return refuse('max-target-out-of-range');
  if (!(maxTarget < ANY_TARGET && channel.followMinerTarget(maxTarget))) {
    const before = channel.difficulty;
    channel.vardiff.setMinerMinimum(targetToDifficulty(maxTarget, channel.port.algorithm));
    followHashRate(channel, m.nominalHashRate);
    if (channel.vardiff.difficulty !== before) channel.announceDifficulty(channel.vardiff.difficulty);
  }
  if (channel.target > maxTarget) refuse('max-target-out-of-range');
}

/** Closes one channel (CloseChannel, or its connection going): its extranonce returns to the pool. */
export function closeChannel(conn: Sv2Connection, channelId: number): void {
  const channel = conn.channels.get(channelId);
  if (!channel) return;
  const { pool, coin } = conn.runtime;
  conn.channels.delete(channelId);
  countChannel(conn, -1);
  if (conn.channels.size === 0) conn.channelSinceMs = Date.now();
  channel.closed = true;
  pool.sessions.delete(channel);
  pool.allocator.release(channel.extranonce1);
  // A stranger's channel leaving says nothing of the worker it borrowed (stratum/strangers.ts).
  if (!pool.resolver.owners.showDisconnected(channel.miner)) return;
  const identity = channel.miner.identity;
  pool.events.emit('worker.disconnected', {
    coin,
    workerId: null,
    userId: identity.kind === 'user' ? identity.userId : null,
    login: channel.login,
  });
}
