import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  FakeTemplateSource,
  syntheticTemplate,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../../../test/support/coins/bitcoin/stratum/unit-pool.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
let pool: UnitPool | undefined;
beforeAll(async () => {
  const { db } = await sharedDatabase();
  await db.query(
    "INSERT INTO users (username, email, password_hash) VALUES ('pipeliner', 'pipeliner@x.io', 'h') ON CONFLICT DO NOTHING",
  );
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
afterAll(closeSharedDatabase);

interface Answer {
  id: number | string;
  result: unknown;
  error: [number, string, null] | null;
}

/** The replies a client received (not notifications), in arrival order. */
function answers(client: StratumTestClient): Answer[] {
  return client.received
    .map(
      (line) =>
        JSON.parse(line) as {
          id: number | string | null;
          method?: string;
          result?: unknown;
          error?: Answer['error'];
        },
    )
    .filter((m): m is Answer & { method?: string } => m.id !== null && m.method === undefined)
    .map(({ id, result, error }) => ({ id, result, error }));
}

async function waitForAnswers(client: StratumTestClient, count: number): Promise<Answer[]> {
  await client.waitFor(
    () => (answers(client).length >= count || client.closed ? true : undefined),
    15_000,
    `${count} answers`,
  );
  return answers(client);
}

const line = (id: number, method: string, params: unknown[]) => `${JSON.stringify({ id, method, params })}\n`;

/** A connection that subscribed and authorized and holds its first job. */
async function miner(p: UnitPool, login: string): Promise<StratumTestClient> {
  const client = await p.connect();
  await client.subscribe();
  expect((await client.authorize(login)).result).toBe(true);
  await client.waitForJob();
  return client;
}

describe('stratum connection order', () => {
  it('answers subscribe, authorize and submit written in one packet in that order, the submit judged as authorized', async () => {
    pool = await startUnitPool();
    const watcher = await miner(pool, ADDRESS);
    const client = await pool.connect();
    client.extranonce1 = Buffer.from('deadbeef', 'hex');
    const share = client.findShare(watcher.job!, 'sha256d');
    const submit = (id: number, jobId = share.job.id) =>
      line(id, 'mining.submit', ['pipeliner.rig', jobId, share.extranonce2, share.ntime, share.nonce]);
    client.sendRaw(
      line(1, 'mining.subscribe', ['proxy/1.0', 'deadbeef']) +
        line(2, 'mining.authorize', ['pipeliner.rig', 'x']) +
        submit(3) +
        submit(4, 'ffff') +
        line(5, 'mining.suggest_difficulty', [1e-9]) +
        line(6, 'mining.authorize', [`${ADDRESS}.two`, 'x']) +
        submit(7),
    );
    const got = await waitForAnswers(client, 7);
    expect(got.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(got.map((a) => a.error?.[0] ?? a.result)).toEqual([
      got[0]?.result,
      true,
      true,
      21,
      true,
      true,
      22,
    ]);
    // Work follows the authorize reply and precedes the answer to the first submit.
    const order = client.received.map((l) =>
      l.includes('"method":"mining.notify"') ? 'notify' : l.slice(0, 7),
    );
    expect(order.indexOf('notify')).toBeGreaterThan(order.indexOf('{"id":2'));
    expect(order.indexOf('notify')).toBeLessThan(order.indexOf('{"id":3'));
  });

  it('answers pipelined scrypt shares, hashed on several worker threads, in the order the miner sent them', async () => {
    const ltc = 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr';
    const source = new FakeTemplateSource('LTC', ltc, syntheticTemplate());
    pool = await startUnitPool(
      { ports: [{ port: 0, coin: 'LTC', vardiff: { start: 2e-5, min: 2e-5, max: 1e9 } }] },
      source,
    );
    const client = await miner(pool, ltc);
    const job = client.job!;
    const shares = [0, 1, 2, 3, 4, 5].map((n) => client.findShare(job, 'scrypt', { extranonce2: n }));
    const submit = (id: number, s = shares[0]!) =>
      line(id, 'mining.submit', [ltc, s.job.id, s.extranonce2, s.ntime, s.nonce]);
    client.sendRaw(
      shares.map((s, i) => submit(10 + i, s)).join('') +
        line(20, 'mining.submit', [ltc, 'ffff', '00000000', shares[0]!.ntime, '00000000']) +
        submit(21) +
        line(22, 'mining.extranonce.subscribe', []),
    );
    const got = (await waitForAnswers(client, 11)).slice(2);
    expect(got.map((a) => a.id)).toEqual([10, 11, 12, 13, 14, 15, 20, 21, 22]);
    expect(got.map((a) => a.error?.[0] ?? a.result)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      21,
      22,
      true,
    ]);
  });

  it('closes a connection that piles up more lines than the queue holds behind a pending authorize, and only that one', async () => {
    pool = await startUnitPool({ maxQueuedLines: 4 });
    const honest = await miner(pool, ADDRESS);
    const flooder = await pool.connect();
    flooder.sendRaw(
      line(1, 'mining.authorize', ['pipeliner.x', 'x']) +
        line(2, 'mining.extranonce.subscribe', []).repeat(10),
    );
    await flooder.closedPromise;
    expect(answers(flooder).length).toBeLessThanOrEqual(1);
    expect((await honest.request('mining.extranonce.subscribe', [])).result).toBe(true);
  });
});

describe('stratum per-connection limits', () => {
  it('refuses a 33rd distinct login on one connection with error 20 and closes a connection that keeps trying', async () => {
    pool = await startUnitPool();
    const client = await pool.connect();
    await client.subscribe();
    client.sendRaw(
      Array.from({ length: 32 }, (_, i) => line(100 + i, 'mining.authorize', [`${ADDRESS}.w${i}`, 'x'])).join(
        '',
      ),
    );
    const first = await waitForAnswers(client, 33);
    expect(first.slice(1).every((a) => a.result === true)).toBe(true);
    expect((await client.authorize(`${ADDRESS}.w32`)).error).toEqual([
      20,
      'Too many workers on one connection',
      null,
    ]);
    expect((await client.authorize(`${ADDRESS}.w0`)).result).toBe(true);
    client.sendRaw(
      Array.from({ length: 20 }, (_, i) =>
        line(200 + i, 'mining.authorize', [`${ADDRESS}.more${i}`, 'x']),
      ).join(''),
    );
    await client.closedPromise;
    expect(answers(client).filter((a) => a.error?.[1] === 'Too many workers on one connection')).toHaveLength(
      16,
    );
    expect(client.closed).toBe(true);
  });

  it('closes connections that do not subscribe and authorize within the deadline and keeps an authorized one', async () => {
    pool = await startUnitPool({ authorizeTimeoutSeconds: 1 });
    const silent = await pool.connect();
    const subscribedOnly = await pool.connect();
    await subscribedOnly.subscribe();
    const working = await miner(pool, ADDRESS);
    const opened = Date.now();
    await Promise.all([silent.closedPromise, subscribedOnly.closedPromise]);
    expect(Date.now() - opened).toBeLessThan(7_000);
    expect(working.closed).toBe(false);
    expect((await working.request('mining.extranonce.subscribe', [])).result).toBe(true);
  });

  it('sends the first job after authorize with clean_jobs=true even when the current job is a refresh', async () => {
    pool = await startUnitPool();
    pool.source.push(syntheticTemplate({ curtime: 1_700_000_030 }), false);
    const client = await miner(pool, ADDRESS);
    expect(client.jobs.map((j) => [j.id, j.clean])).toEqual([['2', true]]);
    pool.source.push(syntheticTemplate({ curtime: 1_700_000_060 }), false);
    const next = await client.waitForJob((j) => j.id === '3');
    expect(next.clean).toBe(false);
  });
});
