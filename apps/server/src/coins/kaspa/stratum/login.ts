// `mining.subscribe` and `mining.authorize`. Subscribe records the agent (which decides the notify
// form and difficulty rounding, session.ts) and is answered as EthereumStratum/1.0.0 pools answer
// it, `[true, "EthereumStratum/1.0.0"]`, or for Bitmain's KS firmware `[null, extranonce, nonce
// bytes left]`. Authorize takes `kaspa:address[.worker]` (an address of the port's network, its
// checksum checked here) or a Manjam account `username[.worker]` through the kit's LoginResolver
// (looked up while later lines of the connection wait their turn). Once authorized, in IceRiver's
// order: the `true`, mining.set_extranonce, mining.set_difficulty, and a job at once.
import { STRATUM_ERROR, splitWorkerName, stratumError } from '@manjam/protocol';
import { isKaspaAddress } from '@manjam/protocol/kaspa';
import { minerRef } from '../../../shares/types.js';
import { passwordDifficulty, WORKER_NAME } from '../../../stratum/auth.js';
import type { BanList } from '../../../stratum/bans.js';
import { KASPA_NONCE_BYTES, type Id, type KaspaSession } from './session.js';
import { KAS, type KaspaMinerRef, type KaspaStratumOptions } from './types.js';

export const ETHEREUM_STRATUM = 'EthereumStratum/1.0.0';

export type LoginContext = Pick<KaspaStratumOptions, 'network' | 'pool' | 'logger' | 'source'> & {
  bans: BanList;
};

function nonceBytesLeft(session: KaspaSession): number {
  return KASPA_NONCE_BYTES - session.extranonceHex.length / 2;
}

export function subscribe(session: KaspaSession, id: Id, params: unknown[]): void {
  const agent = typeof params[0] === 'string' ? params[0] : '';
  session.setAgent(agent);
  session.subscribed = true;
  if (session.bitmain) return session.reply(id, [null, session.extranonceHex, nonceBytesLeft(session)]);
  session.reply(id, [true, ETHEREUM_STRATUM]);
}

export function authorize(ctx: LoginContext, session: KaspaSession, id: Id, params: unknown[]): void {
  const [name, pass] = params;
  if (!session.subscribed) return session.error(id, stratumError(STRATUM_ERROR.NOT_SUBSCRIBED));
  if (typeof name !== 'string') return session.error(id, stratumError(STRATUM_ERROR.OTHER, 'Missing login'));
  if (session.miner || session.loggingIn)
    return session.error(id, stratumError(STRATUM_ERROR.OTHER, 'Already authorized'));
  if (ctx.bans.isLoginBanned(session.address.ip, name)) {
    session.error(
      id,
      stratumError(STRATUM_ERROR.UNAUTHORIZED, 'Worker refused for a while: too many invalid shares'),
    );
    session.close('banned login');
    return;
  }
  const { account, worker } = splitWorkerName(name.trim());
  const password = typeof pass === 'string' ? pass : undefined;
  if (WORKER_NAME.test(worker) && isKaspaAddress(account, ctx.network))
    return authorized(
      ctx,
      session,
      id,
      minerRef(KAS, { kind: 'wallet', address: account }, worker),
      name,
      password,
    );
  const pool = ctx.pool;
  if (!pool) return refuse(session, id, `Invalid address: not a Kaspa ${ctx.network} address`);
  session.loggingIn = true;
  const ticket = session.order.ticket();
  pool.resolveAccount(name).then(
    (outcome) => {
      session.loggingIn = false;
      if (session.closed) return;
      if (outcome.ok) {
        const miner = minerRef(KAS, outcome.miner.identity, outcome.miner.worker);
        return authorized(ctx, session, id, miner, name, password, ticket);
      }
      const busy = outcome.reason === 'lookup-failed';
      refuse(
        session,
        id,
        busy
          ? 'Server busy, try again'
          : `Unknown login: neither a Kaspa ${ctx.network} address nor a Manjam username`,
        ticket,
      );
    },
    (error: unknown) => {
      session.loggingIn = false;
      ctx.logger.error({ err: error }, 'KAS account login failed');
      refuse(session, id, 'Server busy, try again', ticket);
    },
  );
}

function refuse(session: KaspaSession, id: Id, message: string, ticket?: number): void {
  session.error(id, stratumError(STRATUM_ERROR.UNAUTHORIZED, message), ticket);
  session.close('invalid login');
}

function authorized(
  ctx: LoginContext,
  session: KaspaSession,
  id: Id,
  miner: KaspaMinerRef,
  login: string,
  password: string | undefined,
  ticket?: number,
): void {
  session.login = login;
  // Whether this login speaks for its worker (stratum/strangers.ts) is decided from its address.
  ctx.pool?.owners?.bind(miner, session.address);
  session.miner = miner;
  const asked = passwordDifficulty(password);
  if (asked !== undefined) session.vardiff.set(asked, Date.now());
  session.reply(id, true, ticket);
  // Bitmain took its extranonce in the subscribe reply; everyone else gets it now.
  if (!session.bitmain)
    session.notify(
      'mining.set_extranonce',
      JSON.stringify([session.extranonceHex, nonceBytesLeft(session)]),
      true,
    );
  const template = ctx.source.current;
  if (template) session.sendJob(template, true);
  else session.announceDifficulty(true);
  ctx.pool?.workerChanged('connected', miner, login, session.agent);
}
