// `login`: a Monero address of the port's network (`address[.worker]`, checked here) or, in the
// pool, a Manjam account (`username[.worker]`, looked up by the LoginResolver while later lines
// of the connection wait their turn). The reply carries the first job; `pass` `d=N` asks for a
// starting difficulty as on the V1 ports.
import { isMoneroAddress } from '@manjam/protocol/monero';
import { splitWorkerName } from '@manjam/protocol';
import { minerRef } from '../../../shares/types.js';
import { WORKER_NAME } from '../../../stratum/auth.js';
import type { BanList } from '../../../stratum/bans.js';
import { passwordDifficulty } from '../../../stratum/auth.js';
import { holdSeeds } from './randomx-seeds.js';
import type { MoneroTemplate } from './template-source.js';
import { jobParams, type Id, type MoneroSession } from './session.js';
import { XMR, type MoneroMinerRef, type MoneroStratumOptions } from './types.js';

/** What the login reply lists: XMRig sends `keepalived` when the pool offers it. */
export const LOGIN_EXTENSIONS = ['keepalive'] as const;

export type LoginContext = Pick<
  MoneroStratumOptions,
  'network' | 'pool' | 'logger' | 'source' | 'randomx'
> & {
  bans: BanList;
};

export function login(
  ctx: LoginContext,
  session: MoneroSession,
  id: Id,
  params: Record<string, unknown>,
): void {
  const { login: name, pass, agent } = params;
  if (typeof name !== 'string') return session.error(id, 'Missing login');
  if (session.miner || session.loggingIn) return session.error(id, 'Already logged in');
  if (ctx.bans.isLoginBanned(session.address.ip, name)) {
    session.error(id, 'Worker refused for a while: too many invalid shares');
    session.close('banned login');
    return;
  }
  const { account, worker } = splitWorkerName(name.trim());
  const password = typeof pass === 'string' ? pass : undefined;
  const agentText = typeof agent === 'string' ? agent.slice(0, 128) : '';
  const welcome = { login: name, password, agent: agentText };
  if (WORKER_NAME.test(worker) && isMoneroAddress(account, ctx.network)) {
    const miner = minerRef(XMR, { kind: 'wallet', address: account }, worker);
    return loggedIn(ctx, session, id, miner, welcome);
  }
  const pool = ctx.pool;
  if (!pool) return refuseLogin(session, id, `Invalid address: not a Monero ${ctx.network} address`);
  // An account login (`username.worker`): looked up while later lines wait their turn.
  session.loggingIn = true;
  const ticket = session.order.ticket();
  pool.resolveAccount(name).then(
    (outcome) => {
      session.loggingIn = false;
      if (session.closed) return;
      if (outcome.ok && outcome.miner.coin === XMR)
        return loggedIn(ctx, session, id, { ...outcome.miner, coin: XMR }, welcome, ticket);
      const busy = !outcome.ok && outcome.reason === 'lookup-failed';
      refuseLogin(
        session,
        id,
        busy
          ? 'Server busy, try again'
          : `Unknown login: neither a Monero ${ctx.network} address nor a Manjam username`,
        ticket,
      );
    },
    (error: unknown) => {
      session.loggingIn = false;
      ctx.logger.error({ err: error }, 'XMR account login failed');
      refuseLogin(session, id, 'Server busy, try again', ticket);
    },
  );
}

function refuseLogin(session: MoneroSession, id: Id, message: string, ticket?: number): void {
  session.error(id, message, ticket);
  session.close('invalid login');
}

function loggedIn(
  ctx: LoginContext,
  session: MoneroSession,
  id: Id,
  miner: MoneroMinerRef,
  welcome: { login: string; password: string | undefined; agent: string },
  ticket?: number,
): void {
  session.login = welcome.login;
  session.agent = welcome.agent;
  // Whether this login speaks for its worker (stratum/strangers.ts) is decided from its address.
  ctx.pool?.owners?.bind(miner, session.address);
  session.miner = miner;
  const asked = passwordDifficulty(welcome.password);
  if (asked !== undefined) session.vardiff.set(asked, Date.now());
  const template = ctx.source.current as MoneroTemplate;
  // The pool keeps (and now builds) the RandomX caches while a miner is logged in (randomx-seeds.ts).
  session.releaseRandomX = holdSeeds(ctx.randomx, template, ctx.logger);
  const job = session.makeJob(template);
  session.reply(
    id,
    { id: session.id, job: jobParams(job), extensions: LOGIN_EXTENSIONS, status: 'OK' },
    ticket,
  );
  const identity = miner.identity;
  // A stranger's login under someone's worker is not shown to that account.
  if (ctx.pool?.owners?.showConnected(miner) === false) return;
  ctx.pool?.events.emit('worker.connected', {
    coin: XMR,
    workerId: null,
    userId: identity.kind === 'user' ? identity.userId : null,
    login: welcome.login,
    payeeKey: miner.payeeKey,
    worker: miner.worker,
    agent: welcome.agent,
  });
}
