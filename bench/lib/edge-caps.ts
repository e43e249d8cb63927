// Drill phases for the caps an anonymous host could fill (issue 38, items 1-4 and 6), each against
// a real pool process (edge-caps-pool.ts) and each printing what honest users saw, quiet and then
// under the attack, in one run. Nothing is asserted: the figures are the output.
//   sv2-flood     V2 handshakes (act one: 64 random bytes) from 10 addresses at 50 and 500 in
//                 flight; a V1 and a Kaspa miner's answers and p50/p99, and /api/health.
//   port-fill     a V1 port (cap 600) filled from 6 addresses, then from 10; new miners' answers.
//   http-holds    /api/health from fresh addresses while one account holds /api/live WebSockets,
//                 then while slow-body POSTs hold connections.
//   sv2-channels  17,000 V2 channels asked for from one address; a V1 miner's answers meanwhile.
//   stranger      a stranger logs in as victim.rig1 (bob mines on it) and sends 60 garbage shares.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { Sv2TestClient } from '../../apps/server/test/support/coins/bitcoin/stratum-v2/client.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import {
  figuresLine,
  healthRound,
  kasProber,
  ratio,
  sleep,
  startCapsPool,
  v1Prober,
  within,
  type CapsPool,
  type Figures,
  type Prober,
} from './edge-caps-pool.js';
import { int, load, ms, type Report } from './report.js';

const QUIET_SECONDS = 10;
const ATTACK_SECONDS = 15;
const BYSTANDER = '127.0.0.50';

function option(argv: string[], name: string, fallback: number): number {
  const hit = argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
}

/** The V1 bystander's (and the Kaspa one's, when there is one) figures over `seconds`. */
async function bystanders(
  v1: Prober,
  kas: Prober | undefined,
  base: string,
  seconds: number,
): Promise<{ v1: Figures; kas: Figures | undefined; health: Figures }> {
  const [a, b, health] = await Promise.all([
    v1.round(seconds),
    kas?.round(seconds),
    healthRound(base, seconds, 1_000),
  ]);
  return { v1: a, kas: b, health };
}

function bystanderLines(
  report: Report,
  label: string,
  now: { v1: Figures; kas: Figures | undefined; health: Figures },
  quiet?: { v1: Figures; kas: Figures | undefined; health: Figures },
): void {
  report.line(`  ${label}:`);
  report.line(
    `    V1 miner:    ${figuresLine(now.v1)}${quiet ? ` (p99 ${ratio(now.v1, quiet.v1)} quiet)` : ''}`,
  );
  if (now.kas)
    report.line(
      `    Kaspa miner: ${figuresLine(now.kas)}${quiet?.kas ? ` (p99 ${ratio(now.kas, quiet.kas)} quiet)` : ''}`,
    );
  report.line(`    /api/health: ${figuresLine(now.health).replace(/ \(\d+ accepted\)/, '')} (2 s timeout)`);
}

// ---- sv2-flood ------------------------------------------------------------------------------

interface HandshakeFlood {
  sent: number;
  answered: number;
  closedUnanswered: number;
  refused: number;
}

/** `inFlight` act-one connections at all times from `addresses`, until `stop` resolves. */
async function handshakeFlood(port: number, addresses: string[], inFlight: number, stop: Promise<void>) {
  const out: HandshakeFlood = { sent: 0, answered: 0, closedUnanswered: 0, refused: 0 };
  let running = true;
  void stop.then(() => (running = false));
  const one = (localAddress: string): Promise<void> =>
    new Promise((done) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress });
      let answered = false;
      let connected = false;
      const timer = setTimeout(() => socket.destroy(), 2_000);
      socket.on('connect', () => {
        connected = true;
        out.sent++;
        socket.write(randomBytes(64));
      });
      socket.on('data', () => {
        answered = true;
        socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        if (!connected) out.refused++;
        else if (answered) out.answered++;
        else out.closedUnanswered++;
        done();
      });
    });
  await Promise.all(
    Array.from({ length: inFlight }, async (_, slot) => {
      const from = addresses[slot % addresses.length] as string;
      while (running) await one(from);
    }),
  );
  return out;
}

export async function runEdgeSv2Flood(report: Report, argv: string[]): Promise<void> {
  const levels = [option(argv, 'in-flight', 50), option(argv, 'in-flight-high', 500)];
  report.line(`edge: Stratum V2 handshake flood from 10 addresses (issue 38, item 1), load ${load()}`);
  let pool: CapsPool;
  try {
    pool = await startCapsPool({ kas: true });
  } catch (error) {
    report.line(
      `  (no pool with a KAS port: ${String(error).slice(0, 200)}; measured without the Kaspa miner)`,
    );
    pool = await startCapsPool({});
  }
  try {
    report.line(
      `  one pool process: BTC V1 ${pool.v1}, BTC V2 ${pool.v2}, KAS ${pool.kas ?? 'none'}; bystanders: V1 wallet miner from ${BYSTANDER}, Kaspa miner bob.kas1`,
    );
    const v1 = await v1Prober(pool.v1, `${pool.chain.poolAddress}.bystander`, BYSTANDER);
    const kas = pool.kas === undefined ? undefined : await kasProber(pool.kas, 'bob.kas1');
    const quiet = await bystanders(v1, kas, pool.web, QUIET_SECONDS);
    bystanderLines(report, `quiet (${QUIET_SECONDS} s)`, quiet);
    const attackers = Array.from({ length: 10 }, (_, i) => `127.0.0.${11 + i}`);
    for (const inFlight of levels) {
      let stop: () => void = () => undefined;
      const stopped = new Promise<void>((done) => (stop = done));
      const flooding = handshakeFlood(pool.v2, attackers, inFlight, stopped);
      await sleep(1_000);
      const attacked = await bystanders(v1, kas, pool.web, ATTACK_SECONDS);
      stop();
      const flood = await flooding;
      bystanderLines(
        report,
        `${inFlight} handshakes in flight from 10 addresses (${ATTACK_SECONDS} s)`,
        attacked,
        quiet,
      );
      report.line(
        `    the flood: ${int(flood.sent)} act ones sent, ${int(flood.answered)} answered (act two), ` +
          `${int(flood.closedUnanswered)} closed unanswered, ${int(flood.refused)} connections refused`,
      );
      await sleep(2_000);
    }
    await v1.close();
    await kas?.close();
  } finally {
    await pool.close();
  }
}

// ---- port-fill ------------------------------------------------------------------------------

const PORT_CAP = 600;
const IDLE_SECONDS = 10;

/** Authorized idle logins from `address`, up to `count` (stops at the first refusal). */
async function fill(port: number, address: string, count: number, held: StratumTestClient[]) {
  let authorized = 0;
  let refused = 0;
  for (let i = 0; i < count; i++) {
    try {
      const client = await StratumTestClient.connect(port, { localAddress: address });
      const ok = await within(
        (async () => {
          await client.subscribe();
          return (await client.authorize(`bob.fill${address.split('.').at(-1)}x${i}`)).result === true;
        })(),
        3_000,
      );
      if (ok) {
        authorized++;
        held.push(client);
      } else {
        refused++;
        await client.close();
      }
    } catch {
      refused++;
    }
  }
  return { authorized, refused };
}

/** A new miner's first exchange: milliseconds to its authorize answer, or why none came. */
async function newMiner(port: number, address: string): Promise<string> {
  const started = performance.now();
  try {
    const client = await StratumTestClient.connect(port, { localAddress: address });
    const answer = await within(
      (async () => {
        await client.subscribe();
        return client.authorize('bob.newrig');
      })(),
      5_000,
    );
    await client.close();
    if (!answer) return 'no answer within 5 s (closed or silent)';
    return `answered (authorize ${answer.result === true ? 'true' : JSON.stringify(answer.error)}) in ${ms(performance.now() - started)}`;
  } catch {
    return `closed unanswered after ${ms(performance.now() - started)}`;
  }
}

export async function runEdgePortFill(report: Report): Promise<void> {
  report.line(`edge: a Stratum port filled by a few addresses (issue 38, item 3), load ${load()}`);
  const pool = await startCapsPool({
    stratum: { maxConnectionsPerPort: PORT_CAP, seats: { idleSeconds: IDLE_SECONDS } },
  });
  const held: StratumTestClient[] = [];
  try {
    report.line(
      `  V1 port cap ${PORT_CAP} (stratum.maxConnectionsPerPort), seats.idleSeconds ${IDLE_SECONDS} for the drill (default 300), ` +
        `seats.perAddress default (an eighth of the cap: ${Math.max(32, Math.floor(PORT_CAP / 8))}); a miner mining from ${BYSTANDER} throughout`,
    );
    const miner = await v1Prober(pool.v1, `${pool.chain.poolAddress}.mining`, BYSTANDER);
    const quiet = await miner.round(5);
    report.line(
      `  quiet: mining miner ${figuresLine(quiet)}; new miner: ${await newMiner(pool.v1, '127.0.0.60')}`,
    );
    const mining = miner.round(30 + IDLE_SECONDS);
    const six = Array.from({ length: 6 }, (_, i) => `127.0.0.${21 + i}`);
    const tries = Math.ceil(PORT_CAP / 6) + 10;
    const filled = await Promise.all(six.map((a) => fill(pool.v1, a, tries, held)));
    report.line(
      `  6 addresses asked ${int(tries)} authorized idle logins each: held ${filled.map((f) => f.authorized).join(', ')} ` +
        `(${int(held.length)} of ${PORT_CAP}), refused ${int(filled.reduce((s, f) => s + f.refused, 0))}`,
    );
    report.line(`  new miner (127.0.0.61): ${await newMiner(pool.v1, '127.0.0.61')}`);
    const four = Array.from({ length: 6 }, (_, i) => `127.0.0.${31 + i}`);
    const more = await Promise.all(four.map((a) => fill(pool.v1, a, tries, held)));
    report.line(
      `  6 more addresses: held ${more.map((f) => f.authorized).join(', ')} (${int(held.length)} open, the port full at ${PORT_CAP} with the miner)`,
    );
    report.line(`  new miner at once (127.0.0.62): ${await newMiner(pool.v1, '127.0.0.62')}`);
    await sleep((IDLE_SECONDS + 2) * 1000);
    report.line(
      `  new miner after the idle window (127.0.0.63): ${await newMiner(pool.v1, '127.0.0.63')}; ` +
        `another (127.0.0.64): ${await newMiner(pool.v1, '127.0.0.64')}`,
    );
    const during = await mining;
    const evicted = held.filter((c) => c.closed).length;
    report.line(
      `  idle fill connections closed by the pool: ${int(evicted)}; the mining miner meanwhile: ${figuresLine(during)} ` +
        `(p99 ${ratio(during, quiet)} quiet), still connected: ${await within(miner.round(1), 6_000).then((f) => (f && f.answered > 0 ? 'yes' : 'no'))}`,
    );
    await miner.close();
  } finally {
    await Promise.all(held.map((c) => c.close()));
    await pool.close();
  }
}

// ---- http-holds -----------------------------------------------------------------------------

/** Registers `username` through the API and signs it in: its session token (undefined when refused). */
async function signIn(base: string, username: string): Promise<string | undefined> {
  const body = { username, email: `${username}@example.com`, password: 'correct horse battery' };
  await fetch(new URL('/api/auth/register', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, preferredCoin: 'BTC' }),
  });
  const login = await fetch(new URL('/api/auth/login', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: body.email, password: body.password }),
  });
  const json = (await login.json().catch(() => ({}))) as { token?: string };
  return json.token;
}

/** Opens `count` /api/live sockets (one account, one session); how many stay open after 2 s. */
async function liveHold(
  base: string,
  token: string,
  count: number,
): Promise<{ sockets: WebSocket[]; codes: Map<number, number> }> {
  const codes = new Map<number, number>();
  const sockets: WebSocket[] = [];
  const url = `${base.replace(/^http/, 'ws')}/api/live?token=${encodeURIComponent(token)}`;
  for (let i = 0; i < count; i++) {
    const socket = new WebSocket(url);
    socket.on('error', () => undefined);
    socket.on('close', (code) => codes.set(code, (codes.get(code) ?? 0) + 1));
    sockets.push(socket);
    if (i % 50 === 49) await sleep(50);
  }
  await sleep(2_000);
  return { sockets, codes };
}

/** `count` POSTs announcing 4,000 bytes and sending one byte every 2 s; counts those the pool closed. */
function slowBodies(base: string, count: number): { closed: () => number; stop: () => void } {
  const url = new URL(base);
  let closed = 0;
  const sockets: net.Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => {
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
      );
      timers.push(setInterval(() => socket.writable && socket.write(' '), 2_000));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => closed++);
    sockets.push(socket);
  }
  return {
    closed: () => closed,
    stop: () => {
      timers.forEach(clearInterval);
      sockets.forEach((s) => s.destroy());
    },
  };
}

export async function runEdgeHttpHolds(report: Report, argv: string[]): Promise<void> {
  const wsCount = option(argv, 'sockets', 4_500);
  const slow = option(argv, 'slow', 72);
  report.line(`edge: HTTP slots held by started requests (issue 38, item 2), load ${load()}`);
  const pool = await startCapsPool({});
  try {
    const quiet = await healthRound(pool.web, QUIET_SECONDS, 500);
    report.line(`  quiet: /api/health ${figuresLine(quiet).replace(/ \(\d+ accepted\)/, '')}`);
    const token = await signIn(pool.web, 'carol');
    if (!token) report.line('  (could not sign an account in: the WebSocket hold is skipped)');
    else {
      const hold = await liveHold(pool.web, token, wsCount);
      const open = hold.sockets.filter((s) => s.readyState === WebSocket.OPEN).length;
      const during = await healthRound(pool.web, ATTACK_SECONDS, 500);
      report.line(
        `  one account opened ${int(wsCount)} /api/live sockets: ${int(open)} still open, closed by code ${JSON.stringify(Object.fromEntries(hold.codes))}; ` +
          `/api/health meanwhile ${figuresLine(during).replace(/ \(\d+ accepted\)/, '')} (p99 ${ratio(during, quiet)} quiet)`,
      );
      hold.sockets.forEach((s) => s.terminate());
      await sleep(2_000);
    }
    const bodies = slowBodies(pool.web, slow);
    await sleep(1_000);
    const during = await healthRound(pool.web, 30, 1_000);
    report.line(
      `  ${int(slow)} POSTs announcing 4,000 bytes, one byte every 2 s: the pool closed ${int(bodies.closed())} within ~31 s; ` +
        `/api/health meanwhile ${figuresLine(during).replace(/ \(\d+ accepted\)/, '')} (p99 ${ratio(during, quiet)} quiet)`,
    );
    bodies.stop();
  } finally {
    await pool.close();
  }
}

// ---- sv2-channels ---------------------------------------------------------------------------

export async function runEdgeSv2Channels(report: Report, argv: string[]): Promise<void> {
  const wanted = option(argv, 'channels', 17_000);
  const connections = option(argv, 'channel-connections', 20);
  report.line(`edge: ${int(wanted)} Stratum V2 channels from one address (issue 38, item 4), load ${load()}`);
  const pool = await startCapsPool({});
  const clients: Sv2TestClient[] = [];
  try {
    const v1 = await v1Prober(pool.v1, `${pool.chain.poolAddress}.bystander`, BYSTANDER);
    const quiet = await v1.round(QUIET_SECONDS);
    report.line(`  quiet: V1 miner from ${BYSTANDER} ${figuresLine(quiet)}`);
    let asked = 0;
    let opened = 0;
    let unanswered = 0;
    let refusedConnections = 0;
    const errors = new Map<string, number>();
    const started = performance.now();
    const opening = Promise.all(
      Array.from({ length: connections }, async (_, c) => {
        let client: Sv2TestClient;
        try {
          client = await Sv2TestClient.connect(pool.v2, pool.authority);
          await client.setup();
        } catch {
          refusedConnections++;
          return;
        }
        clients.push(client);
        while (asked < wanted && !client.closed) {
          asked++;
          const answer = await within(
            client.open('extended', `${pool.chain.poolAddress}.c${c}x${asked}`),
            3_000,
          );
          if (!answer) {
            unanswered++;
            break;
          }
          if (answer.ok) {
            opened++;
            answer.work.catch(() => undefined);
          } else errors.set(answer.errorCode, (errors.get(answer.errorCode) ?? 0) + 1);
        }
      }),
    );
    const during = await v1.round(ATTACK_SECONDS);
    await opening;
    const seconds = (performance.now() - started) / 1000;
    report.line(
      `  ${int(connections)} V2 connections from 127.0.0.1 asked ${int(asked)} channels in ${seconds.toFixed(1)} s: ${int(opened)} opened, ` +
        `refused ${JSON.stringify(Object.fromEntries(errors))}, ${int(unanswered)} unanswered within 3 s, ${int(refusedConnections)} connections refused; ` +
        `connections the pool closed ${int(clients.filter((c) => c.closed).length)}`,
    );
    report.line(`  V1 miner meanwhile: ${figuresLine(during)} (p99 ${ratio(during, quiet)} quiet)`);
    await v1.close();
  } finally {
    clients.forEach((c) => c.socket.destroy());
    await pool.close();
  }
}

// ---- stranger -------------------------------------------------------------------------------

async function rig1Figures(pool: CapsPool): Promise<{ accepted: number; rejected: number } | undefined> {
  const result = await pool.database.db.query<{ accepted: number; rejected: number }>(
    `SELECT w.accepted_shares::int AS accepted, w.rejected_shares::int AS rejected
       FROM workers w JOIN payees p ON p.id = w.payee_id JOIN users u ON u.id = p.user_id
      WHERE u.username = 'victim' AND lower(w.name) = 'rig1'`,
  );
  return result.rows[0];
}

export async function runEdgeStranger(report: Report, argv: string[]): Promise<void> {
  const garbage = option(argv, 'garbage', 60);
  report.line(`edge: a stranger's garbage shares on a victim's worker (issue 38, item 6), load ${load()}`);
  const pool = await startCapsPool({});
  try {
    report.line(
      `  account victim mines as victim.rig1 from 127.0.0.1; the stranger logs in as victim.rig1 from 127.0.0.2`,
    );
    const token = await signIn(pool.web, 'victim');
    const offline: string[] = [];
    let live: WebSocket | undefined;
    if (token) {
      live = new WebSocket(`${pool.web.replace(/^http/, 'ws')}/api/live?token=${encodeURIComponent(token)}`);
      live.on('error', () => undefined);
      live.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.includes('"status":"offline"')) offline.push(text);
      });
    }
    const rig = await v1Prober(pool.v1, 'victim.rig1', '127.0.0.1');
    const quiet = await rig.round(QUIET_SECONDS, 200);
    report.line(`  quiet: victim.rig1 ${figuresLine(quiet)}`);
    const mining = rig.round(ATTACK_SECONDS, 200);
    const stranger = await StratumTestClient.connect(pool.v1, { localAddress: '127.0.0.2' });
    await stranger.subscribe();
    const login = await stranger.authorize('victim.rig1');
    let answered = 0;
    let cut = false;
    for (let i = 0; i < garbage && !stranger.closed; i++) {
      const reply = await within(
        stranger.request('mining.submit', ['victim.rig1', 'ffffffff', '00000000', '00000000', '00000000']),
        3_000,
      );
      if (!reply) {
        cut = true;
        break;
      }
      answered++;
    }
    await stranger.close();
    const during = await mining;
    await sleep(1_000);
    report.line(
      `  the stranger: authorize ${JSON.stringify(login.result)}, ${int(answered)} of ${int(garbage)} garbage shares answered (refused)${cut ? ', then cut' : ''}, disconnected`,
    );
    report.line(`  victim.rig1 meanwhile: ${figuresLine(during)} (p99 ${ratio(during, quiet)} quiet)`);
    report.line(
      token
        ? `  the victim's live feed: ${int(offline.length)} "offline" event(s) for a worker while victim.rig1 mined (target 0)`
        : '  (the victim could not sign in: live feed not watched)',
    );
    await rig.close();
    live?.close();
    // A clean stop writes every count (reject counts are written every statsFlushSeconds).
    await pool.stopPool();
    const rig1 = await rig1Figures(pool);
    report.line(
      `  victim.rig1's row after the pool stopped: ${int(rig1?.accepted ?? 0)} accepted, ${int(rig1?.rejected ?? 0)} rejected ` +
        `(rig1's own rejects only: target ${int(quiet.answered + during.answered - quiet.accepted - during.accepted)})`,
    );
  } finally {
    await pool.close();
  }
}
