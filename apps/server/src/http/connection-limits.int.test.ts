// Issue 25, items 4 and 6, over real sockets: held partial-header HTTP connections cannot take
// the process's descriptors (a cap per address, a cap per listener, a header deadline) while
// /api/health and a Stratum port still answer; and a path id past PostgreSQL's integer range
// answers the route's 404 instead of a 500 from the database.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- JSON bodies are read field by field */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { BTC_REGTEST_ADDRESS } from '../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../test/support/coins/bitcoin/stratum/unit-pool.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const PARTIAL_HEADER = 'GET /api/health HTTP/1.1\r\nHost: pool.test\r\nX-Slow: ';

interface Held {
  socket: net.Socket;
  /** Milliseconds from connect to close, once closed. */
  closedAfterMs: number | undefined;
  /** What the server wrote before closing (a 408 at the header deadline, nothing at accept). */
  received: string;
}

/** Opens a connection from `localAddress` and sends headers that never end. */
function holdPartial(port: number, localAddress: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    const held: Held = { socket, closedAfterMs: undefined, received: '' };
    let connectedAt = 0;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (held.received += text));
    socket.on('close', () => (held.closedAfterMs = Date.now() - connectedAt));
    socket.once('error', (error) => (connectedAt ? undefined : reject(error)));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      connectedAt = Date.now();
      socket.write(PARTIAL_HEADER);
      resolve(held);
    });
  });
}

async function holdMany(port: number, addresses: string[], perAddress: number): Promise<Held[]> {
  const held: Held[] = [];
  for (const address of addresses)
    for (let i = 0; i < perAddress; i += 1) held.push(await holdPartial(port, address));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return held;
}

/** GET over a fresh connection (no keep-alive) from `localAddress`: status, or the error code. */
function get(url: string, localAddress = '127.0.0.1'): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, localAddress, timeout: 3_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** /metrics over a fresh connection that closes after the answer (no kept-alive connection counts). */
function metricsText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/metrics`, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

async function stratumAnswers(pool: UnitPool): Promise<boolean> {
  const client = await pool.connect();
  const subscribed = await client.subscribe();
  const authorized = await client.authorize(`${BTC_REGTEST_ADDRESS}.probe`);
  await client.close();
  return subscribed.error === null && authorized.result === true;
}

const open = (held: Held[]) => held.filter((h) => h.closedAfterMs === undefined).length;
const addresses = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

describe('HTTP connections held by strangers', () => {
  let api: TestApi;
  let pool: UnitPool;
  let port = 0;
  const held: Held[] = [];

  beforeAll(async () => {
    api = await startTestApi((await sharedDatabase()).db, {
      config: {
        http: {
          host: '127.0.0.1',
          port: 0,
          webDist: '',
          maxConnections: 20,
          maxConnectionsPerAddress: 4,
          headersTimeoutSeconds: 2,
          requestTimeoutSeconds: 2,
        },
      },
    });
    port = Number(new URL(api.url).port);
    pool = await startUnitPool({ maxConnectionsPerPort: 3 });
  });
  afterAll(async () => {
    for (const h of held) h.socket.destroy();
    await api.close();
    await pool.close();
    await closeSharedDatabase();
  });

  it('closes an address’s connections past its cap at once while /api/health and Stratum answer', async () => {
    const flood = await holdMany(port, ['127.0.0.2'], 10);
    held.push(...flood);
    expect(open(flood)).toBe(4);
    const refused = flood.filter((h) => h.closedAfterMs !== undefined);
    expect(refused).toHaveLength(6);
    for (const h of refused) {
      expect(h.closedAfterMs).toBeLessThan(300);
      expect(h.received).toBe('');
    }
    expect(await get(`${api.url}/api/health`)).toEqual({ status: 200 });
    expect(await stratumAnswers(pool)).toBe(true);
  });

  it('at the listener’s cap, a client that sends its request takes the place of the oldest held connection; Stratum still answers', async () => {
    for (const h of held.splice(0)) h.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const flood = await holdMany(port, addresses(10, 6), 4);
    held.push(...flood);
    // 24 held connections against a cap of 20: the 4 oldest were closed without an answer.
    expect(open(flood)).toBe(20);
    expect(flood.slice(0, 4).every((h) => h.closedAfterMs !== undefined && h.received === '')).toBe(true);
    expect(await get(`${api.url}/api/health`, '127.0.0.99')).toEqual({ status: 200 });
    expect(open(flood)).toBe(19);
    expect(await stratumAnswers(pool)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 2_600));
    expect(open(flood)).toBe(0);
    const cut = flood.filter((h) => h.received !== '');
    expect(cut).toHaveLength(19);
    for (const h of cut) expect(h.received).toMatch(/^HTTP\/1\.1 408/);
    const metrics = await metricsText(api.url);
    expect(metrics).toMatch(/manjam_http_connections_refused_total\{cap="address"\} 6\b/);
    expect(metrics).toMatch(/manjam_http_connections_evicted_total 5\b/);
  });

  it('refuses a new connection at the listener’s cap when every open one has begun a request', async () => {
    const busy: net.Socket[] = [];
    for (const address of addresses(30, 5))
      for (let i = 0; i < 4; i += 1) {
        const socket = net.connect({ host: '127.0.0.1', port, localAddress: address });
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        const answered = new Promise<void>((resolve) => {
          socket.once('data', () => resolve());
          socket.once('close', () => resolve());
        });
        socket.write('GET /api/health HTTP/1.1\r\nHost: pool.test\r\n\r\n');
        await answered;
        busy.push(socket);
      }
    const refused = await holdPartial(port, '127.0.0.99');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(refused.closedAfterMs).toBeLessThan(200);
    expect(refused.received).toBe('');
    expect(busy.filter((socket) => !socket.destroyed)).toHaveLength(20);
    for (const socket of busy) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const metrics = await metricsText(api.url);
    expect(metrics).toMatch(/manjam_http_connections_refused_total\{cap="connections"\} 1\b/);
  });

  it('cuts a client that trickles its headers at the header deadline', async () => {
    const slow = await holdPartial(port, '127.0.0.3');
    const trickle = setInterval(() => slow.socket.write('a'), 200);
    await new Promise<void>((resolve) => slow.socket.once('close', () => resolve()));
    clearInterval(trickle);
    expect(slow.closedAfterMs).toBeGreaterThanOrEqual(1_900);
    expect(slow.closedAfterMs).toBeLessThan(3_500);
    expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a Stratum connection past the port’s cap as it is accepted, the others keep mining', async () => {
    const miners = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    for (const miner of miners) expect((await miner.subscribe()).error).toBeNull();
    const fourth = await pool.connect();
    await fourth.closedPromise;
    expect(fourth.received).toEqual([]);
    expect((await miners[0]?.authorize(`${BTC_REGTEST_ADDRESS}.capped`))?.result).toBe(true);
    await Promise.all(miners.map((m) => m.close()));
  });
});

describeEachDatabase('path ids past PostgreSQL integer range', (getDb) => {
  let api: TestApi;
  let token = '';
  beforeAll(async () => {
    api = await startTestApi(getDb());
    token = (await api.signUp()).token;
  });
  afterAll(() => api.close());

  it('answers the route’s 404 with the error shape, never a 500', async () => {
    const cases: [string, string, unknown, string][] = [
      ['PUT', '/api/miners/2147483648', { name: 'rig' }, 'miner-not-found'],
      ['DELETE', '/api/miners/2147483648', undefined, 'miner-not-found'],
      ['DELETE', '/api/workers/2147483648', undefined, 'worker-not-found'],
      ['PUT', '/api/workers/2147483648', { name: 'rig' }, 'worker-not-found'],
      ['GET', '/api/workers/99999999999999999999', undefined, 'worker-not-found'],
      ['PUT', '/api/miners/2147483648', { name: '' }, 'miner-not-found'],
      ['POST', '/api/notifications/9007199254740993/read', undefined, 'not-found'],
      // In range but no row of the user's: the same answer, from the database.
      ['PUT', '/api/miners/2147483647', { name: 'rig' }, 'miner-not-found'],
      ['DELETE', '/api/workers/2147483647', undefined, 'worker-not-found'],
    ];
    for (const [method, path, body, code] of cases) {
      const response = await api.request(method, path, { token, ...(body ? { body } : {}) });
      expect({ method, path, status: response.status, code: response.json.error.code }).toEqual({
        method,
        path,
        status: 404,
        code,
      });
      expect(typeof response.json.error.message).toBe('string');
    }
  });

  it('still answers 400 for an id that is not a number, and 401 before any of it without a token', async () => {
    expect((await api.request('DELETE', '/api/workers/abc', { token })).json.error.code).toBe(
      'validation-failed',
    );
    expect((await api.request('DELETE', '/api/workers/2147483648')).status).toBe(401);
  });
});
