// Misbehaving miners on a real pool: bcoin regtest (SHA-256d) and PostgreSQL. Pipelined lines,
// an authorize flood, a NAT with one bad rig, and an attacker who reconnects to reset its count.
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { startTestApi } from '../../../../test/support/http.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { StratumTestClient, type FoundShare } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';

let chain: DevChain;
let database: TestDatabase;
let pool: PoolOnChain;
const clients: StratumTestClient[] = [];

beforeAll(async () => {
  chain = await startBtcTestChain({ logger: testLogger });
  database = await openTestDatabase('postgres');
  await database.db.query(
    "INSERT INTO users (username, email, password_hash) VALUES ('proxyowner', 'proxy@x.io', 'h')",
  );
  pool = await startPoolOnChain({ coin: 'BTC', chain, database, ports: [{ start: 3e-10 }] });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await pool?.close();
  await database?.drop();
  await chain?.stop();
});

const line = (id: number, method: string, params: unknown[]) => `${JSON.stringify({ id, method, params })}\n`;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** Each scenario comes from its own loopback address (the pool judges addresses apart). */
const NAT = '127.0.0.2';
const EVADER = '127.0.0.3';

async function connect(localAddress = '127.0.0.1'): Promise<StratumTestClient> {
  const client = await StratumTestClient.connect(pool.ports[0] as number, { localAddress });
  clients.push(client);
  return client;
}

async function miner(login: string, localAddress?: string): Promise<StratumTestClient> {
  const client = await connect(localAddress);
  await client.subscribe();
  expect((await client.authorize(login)).result).toBe(true);
  await client.waitForJob();
  return client;
}

/** A share on a job (default: the miner's latest) that is not a block, so the tip does not move. */
function share(client: StratumTestClient, job = client.job!): FoundShare {
  return client.findShare(job, 'sha256d', { accept: (b, j) => b.hashValue > j.template.networkTarget });
}

/** Sends `count` submits for a job that does not exist (each one invalid) and waits for the answers or the close. */
async function junk(client: StratumTestClient, login: string, count: number): Promise<void> {
  const lines = Array.from({ length: count }, (_, i) =>
    line(1_000 + i, 'mining.submit', [login, 'feedbeef', '00000000', '5f5e1000', '00000000']),
  );
  client.sendRaw(lines.join(''));
  await client.waitFor(
    () =>
      client.closed || client.received.filter((l) => l.includes('"Job not found"')).length >= count
        ? true
        : undefined,
    15_000,
    'junk answers',
  );
}

describe('stratum under misbehaving miners (bcoin regtest, PostgreSQL)', () => {
  it('answers subscribe, authorize (an account looked up in PostgreSQL) and submit sent in one write in order, the share accepted', async () => {
    const watcher = await miner(`${chain.poolAddress}.watch`);
    const client = await connect();
    client.extranonce1 = Buffer.from('0badf00d', 'hex');
    const s = share(client, watcher.job);
    client.sendRaw(
      line(1, 'mining.subscribe', ['firmware/2', '0badf00d']) +
        line(2, 'mining.authorize', ['ProxyOwner.rack7', 'x']) +
        line(3, 'mining.submit', ['ProxyOwner.rack7', s.job.id, s.extranonce2, s.ntime, s.nonce]),
    );
    await client.waitForLine((l) => l.startsWith('{"id":3,'));
    const ids = client.received.filter((l) => !l.startsWith('{"id":null')).map((l) => l.slice(0, 40));
    process.stdout.write(`[pipelined] ${ids.join(' | ')}\n`);
    expect(ids).toEqual([
      expect.stringMatching(/^\{"id":1,"result":\[/),
      '{"id":2,"result":true,"error":null}',
      '{"id":3,"result":true,"error":null}',
    ]);
  });

  it('cuts an authorize flood at the login cap and the queue bound, and its memory returns after the connections close', async () => {
    const steady = await miner(`${chain.poolAddress}.steady`);
    gc();
    const before = process.memoryUsage();
    const started = Date.now();
    let answered = 0;
    let slowest = 0;
    const ping = setInterval(() => {
      const sent = Date.now();
      void steady.request('mining.extranonce.subscribe', []).then(
        () => (slowest = Math.max(slowest, Date.now() - sent)),
        () => undefined,
      );
    }, 50);
    // Five attackers, each reconnecting 100 times and trying 48 logins per connection (5 x 4,800 authorizes).
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (a) => {
        for (let c = 0; c < 100; c++) {
          const client = await connect();
          client.sendRaw(
            Array.from({ length: 48 }, (_, i) =>
              line(i + 1, 'mining.authorize', [`${chain.poolAddress}.a${a}c${c}w${i}`, 'x']),
            ).join(''),
          );
          await client.closedPromise;
          answered += client.received.filter((l) => l.includes('"result"')).length;
          clients.splice(clients.indexOf(client), 1);
        }
      }),
    );
    // One connection pipelining 10,000 authorizes of made-up accounts: closed at the queue bound.
    const piped = await connect();
    piped.sendRaw(
      Array.from({ length: 10_000 }, (_, i) => line(i + 1, 'mining.authorize', [`nobody${i}.rig`, 'x'])).join(
        '',
      ),
    );
    await piped.closedPromise;
    clearInterval(ping);
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    const after = process.memoryUsage();
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `[authorize flood] 24,000 authorizes on 500 connections + 10,000 pipelined in ${seconds.toFixed(1)} s; answered ${answered} + ${piped.received.length}; ` +
        `steady miner's slowest ping ${slowest} ms; after closing (gc): RSS ${mib(before.rss)} -> ${mib(after.rss)} MiB, heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB; open connections ${pool.stratum.stats().connections}\n`,
    );
    expect(answered).toBe(500 * 48);
    expect(piped.received.length).toBeLessThan(100);
    expect(steady.closed).toBe(false);
    expect(slowest).toBeLessThan(1_000);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(16 * 2 ** 20);
  });

  it('behind one NAT, cuts the rig sending junk and keeps the five honest rigs on the same address mining', async () => {
    const honest = await Promise.all([1, 2, 3, 4, 5].map((n) => miner(`${chain.poolAddress}.nat${n}`, NAT)));
    const bad = await miner(`${chain.poolAddress}.natbad`, NAT);
    await junk(bad, `${chain.poolAddress}.natbad`, 100);
    await bad.closedPromise;
    const replies = await Promise.all(
      honest.map((h, n) => h.submit(`${chain.poolAddress}.nat${n + 1}`, share(h))),
    );
    process.stdout.write(
      `[nat] bad rig cut after ${bad.received.filter((l) => l.includes('Job not found')).length} junk submits; honest replies ${replies.map((r) => (r.result === true ? 'true' : (r.error?.[1] ?? 'no answer'))).join(', ')}; bans ${JSON.stringify(pool.stratum.stats().bans)}\n`,
    );
    expect(replies.map((r) => r.result)).toEqual([true, true, true, true, true]);
    expect(honest.every((h) => !h.closed)).toBe(true);
    expect(pool.stratum.stats().bans).toEqual({ connection: 1, ip: 0 });
    const again = await connect(NAT);
    await again.subscribe();
    expect((await again.authorize(`${chain.poolAddress}.natbad`)).error?.[1]).toBe(
      'Worker refused for a while: too many invalid shares',
    );
    await Promise.all(honest.map((h) => h.close()));
    await again.close();
  });

  it('still bans an attacker that reconnects every 99 junk submits to reset its count', async () => {
    let connections = 0;
    let sent = 0;
    for (;;) {
      const client = await connect(EVADER);
      connections++;
      if (client.closed || (await client.subscribe().catch(() => undefined)) === undefined) break;
      const login = `${chain.poolAddress}.evader${connections}`;
      if ((await client.authorize(login).catch(() => undefined))?.result !== true) break;
      await client.waitForJob();
      await junk(client, login, 99);
      sent += client.received.filter((l) => l.includes('Job not found')).length;
      await client.close();
      expect(connections).toBeLessThan(10);
    }
    process.stdout.write(
      `[evader] banned after ${connections - 1} connections and ${sent} junk submits; bans ${JSON.stringify(pool.stratum.stats().bans)}\n`,
    );
    expect(pool.stratum.stats().bans.ip).toBe(1);
    const refused = await connect(EVADER);
    await refused.closedPromise;
    expect(refused.received).toEqual([]);
    expect((await (await connect(NAT)).subscribe()).error).toBeNull();
  });

  it('counts the ban decisions on /metrics by scope', async () => {
    const api = await startTestApi(database.db, {
      metrics: {
        connections: () => pool.stratum.stats().connections,
        sharesByResult: () => ({}),
        bans: () => pool.stratum.stats().bans,
      },
    });
    try {
      const text = (await api.request('GET', '/metrics')).text;
      expect(text).toContain('# TYPE manjam_stratum_bans_total counter');
      expect(text).toMatch(/^manjam_stratum_bans_total\{scope="connection"\} 4$/m);
      expect(text).toMatch(/^manjam_stratum_bans_total\{scope="ip"\} 1$/m);
    } finally {
      await api.close();
    }
  });
});
