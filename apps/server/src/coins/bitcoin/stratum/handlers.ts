import {
  negotiateVersionMask,
  stratumError,
  STRATUM_ERROR,
  subscribeResult,
  toHexUint32,
  type StratumError,
} from '@manjam/protocol';
import type { Handler, StratumId, StratumSession } from './context.js';
import { handleSubmit } from './submit.js';
import { passwordDifficulty } from '../../../stratum/auth.js';

/** Refused authorizes (unknown login, over the cap, banned) after which a connection is closed. */
export const MAX_REFUSED_AUTHORIZES = 16;

type ParamKind = 'string' | 'string?' | 'number' | 'array?' | 'object?';

const CHECKS: Record<ParamKind, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  'string?': (v) => v === undefined || v === null || typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  'array?': (v) => v === undefined || v === null || Array.isArray(v),
  'object?': (v) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v)),
};

/** The one validation helper: true when params match the kinds; otherwise answers error 20. */
export function validParams(
  session: StratumSession,
  id: StratumId,
  params: unknown[],
  kinds: ParamKind[],
  method: string,
): boolean {
  const ok = kinds.every((kind, i) => CHECKS[kind](params[i]));
  if (!ok) session.error(id, stratumError(STRATUM_ERROR.OTHER, `Invalid parameters for ${method}`));
  return ok;
}

const subscribe: Handler = (session, id, params) => {
  if (!validParams(session, id, params, ['string?', 'string?'], 'mining.subscribe')) return;
  if (!session.extranonce1) {
    const resume = typeof params[1] === 'string' ? params[1] : undefined;
    session.extranonce1 = session.port.pool.allocator.allocate(resume);
  }
  session.userAgent = typeof params[0] === 'string' ? params[0].slice(0, 128) : '';
  session.subscribed = true;
  const en1 = session.extranonce1;
  const result = subscribeResult(en1.toString('hex'), en1, session.port.pool.config.stratum.extranonce2Size);
  session.reply(id, JSON.stringify(result));
  if (session.logins.size > 0) startWork(session);
};

const authorize: Handler = async (session, id, params) => {
  if (!validParams(session, id, params, ['string', 'string?'], 'mining.authorize')) return;
  const login = params[0] as string;
  const { pool, coin, params: coinParams } = session.port;
  if (!session.logins.has(login) && session.logins.size >= pool.config.stratum.maxLoginsPerConnection) {
    return refuseLogin(session, id, stratumError(STRATUM_ERROR.OTHER, 'Too many workers on one connection'));
  }
  if (pool.bans.isLoginBanned(session.ip, login)) {
    return refuseLogin(
      session,
      id,
      stratumError(STRATUM_ERROR.UNAUTHORIZED, 'Worker refused for a while: too many invalid shares'),
    );
  }
  const outcome = await pool.resolver.resolve(login, coin, coinParams, session.address);
  // Gone while its account was looked up: nothing to add (no 'worker.connected' without a disconnect).
  if (session.closed) return;
  if (!outcome.ok) {
    if (outcome.reason === 'lookup-failed')
      session.error(id, stratumError(STRATUM_ERROR.OTHER, 'Account lookup failed, try again'));
    else
      refuseLogin(
        session,
        id,
        stratumError(
          STRATUM_ERROR.UNAUTHORIZED,
          `Unauthorized worker: not a ${coin} address or a Manjam account`,
        ),
      );
    return;
  }
  const again = session.logins.has(login);
  // A repeated authorize keeps the login's first binding (its presence was shown, or not, by it).
  if (!again) session.logins.set(login, outcome.miner);
  session.reply(id, 'true');
  // A starting difficulty asked for in the password ("d=0.5", "x,d=0.5"), within the port's vardiff bounds.
  const asked = passwordDifficulty(params[1] as string | undefined);
  if (asked !== undefined) {
    const difficulty = session.vardiff.set(asked, Date.now());
    if (difficulty !== session.difficulty || session.pendingDifficulty !== undefined)
      session.announceDifficulty(difficulty);
  }
  const identity = outcome.miner.identity;
  // One connected event per login and session (a repeated authorize is not a second connection),
  // shown to the account only for its own miner (stratum/strangers.ts).
  if (!again && pool.resolver.owners.showConnected(outcome.miner))
    pool.events.emit('worker.connected', {
      coin,
      workerId: null,
      userId: identity.kind === 'user' ? identity.userId : null,
      login,
      payeeKey: outcome.miner.payeeKey,
      worker: outcome.miner.worker,
      agent: session.userAgent,
    });
  if (session.subscribed) startWork(session);
};

/** Answers a refused authorize; a connection that keeps trying logins is closed. */
function refuseLogin(session: StratumSession, id: StratumId, error: StratumError): void {
  session.error(id, error);
  session.refusedAuthorizes++;
  if (session.refusedAuthorizes >= MAX_REFUSED_AUTHORIZES) session.close('too many refused authorizes');
}

/** Sends difficulty and the current job once a session is subscribed and authorized. */
function startWork(session: StratumSession): void {
  const job = session.port.jobs.current;
  if (session.working || !job) return;
  session.sendJob(job);
}

const configure: Handler = (session, id, params) => {
  if (!validParams(session, id, params, ['array?', 'object?'], 'mining.configure')) return;
  const extensions = (params[0] ?? []) as unknown[];
  const options = (params[1] ?? {}) as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const ext of extensions) {
    if (ext === 'version-rolling') {
      session.versionMask = negotiateVersionMask(options['version-rolling.mask'] ?? 'ffffffff');
      result['version-rolling'] = true;
      result['version-rolling.mask'] = toHexUint32(session.versionMask);
    } else if (ext === 'minimum-difficulty') {
      const value = options['minimum-difficulty.value'];
      const ok = typeof value === 'number' && Number.isFinite(value) && value > 0;
      if (ok) {
        session.vardiff.setMinerMinimum(value);
        if (session.difficulty < session.vardiff.minimum) session.announceDifficulty(session.vardiff.minimum);
      }
      result['minimum-difficulty'] = ok;
    } else if (typeof ext === 'string') {
      result[ext] = false;
    }
  }
  session.reply(id, JSON.stringify(result));
};

const suggestDifficulty: Handler = (session, id, params) => {
  if (!validParams(session, id, params, ['number'], 'mining.suggest_difficulty')) return;
  const difficulty = session.vardiff.set(params[0] as number, Date.now());
  if (difficulty !== session.difficulty || session.pendingDifficulty !== undefined)
    session.announceDifficulty(difficulty);
  session.reply(id, 'true');
};

const extranonceSubscribe: Handler = (session, id) => {
  session.reply(id, 'true');
};

/**
 * The methods a V1 port answers. A `Map`, not an object literal: a miner's method name is looked up
 * as a key only, so `__proto__`, `constructor` or `toString` are unknown methods like any other
 * (an object would hand back members of `Object.prototype`).
 */
export const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ['mining.subscribe', subscribe],
  ['mining.authorize', authorize],
  ['mining.submit', handleSubmit],
  ['mining.configure', configure],
  ['mining.suggest_difficulty', suggestDifficulty],
  ['mining.extranonce.subscribe', extranonceSubscribe],
]);
