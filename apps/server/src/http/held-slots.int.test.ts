// HTTP slots held by one account or one stranger, over real sockets: /api/live WebSockets are
// capped per session, account and address (a socket past a cap is closed with 4429 and holds
// nothing), a POST whose body trickles below the body rate is closed, and /api/health answers
// within 2 s from a fresh address through either hold.
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON bodies are read field by field */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { closeSharedDatabase, sharedDatabase } from '../../test/support/coins/bitcoin/stratum/unit-pool.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

interface Live {
  socket: WebSocket;
  /** The close code once closed. */
  code: number | undefined;
  /** Resolves with the first message's type, or 'closed'. */
  first: Promise<string>;
}

function openLive(api: TestApi, token: string, localAddress = '127.0.0.1'): Live {
  const socket = new WebSocket(
    `${api.url.replace('http', 'ws')}/api/live?token=${encodeURIComponent(token)}`,
    {
      localAddress,
    },
  );
  const live: Live = { socket, code: undefined, first: Promise.resolve('') };
  live.first = new Promise((resolve) => {
    socket.once('message', (data: Buffer) =>
      resolve((JSON.parse(data.toString('utf8')) as { type: string }).type),
    );
    socket.on('close', (code) => {
      live.code = code;
      resolve('closed');
    });
    socket.on('error', () => resolve('closed'));
  });
  return live;
}

/** GET /api/health over a fresh connection from `localAddress`: status (or 0) and milliseconds. */
function health(url: string, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.get(
      `${url}/api/health`,
      { agent: false, localAddress, timeout: 5_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: Date.now() - started }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, ms: Date.now() - started }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live WebSockets held by one account', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi((await sharedDatabase()).db, {
      config: {
        http: {
          host: '127.0.0.1',
          port: 0,
          webDist: '',
          maxConnections: 60,
          maxConnectionsPerAddress: 40,
          live: { maxPerUser: 3, maxPerSession: 2, maxPerAddress: 4 },
        },
      },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('closes a live socket past the session’s, the account’s or the address’s cap with 4429, and a freed place is taken again', async () => {
    const alice = await api.signUp('held_alice');
    const again = await api.request('POST', '/api/auth/login', {
      body: { email: alice.email, password: alice.password },
    });
    const secondSession = again.json.token as string;
    const bob = await api.signUp('held_bob');

    const a1 = openLive(api, alice.token, '127.0.1.1');
    const a2 = openLive(api, alice.token, '127.0.1.1');
    expect([await a1.first, await a2.first]).toEqual(['hello', 'hello']);
    const a3 = openLive(api, alice.token, '127.0.1.1');
    expect([await a3.first, a3.code]).toEqual(['closed', 4429]);

    const b1 = openLive(api, secondSession, '127.0.1.2');
    expect(await b1.first).toBe('hello');
    const b2 = openLive(api, secondSession, '127.0.1.2');
    expect([await b2.first, b2.code]).toEqual(['closed', 4429]);

    const bobs = [0, 1, 2].map(() => openLive(api, bob.token, '127.0.1.1'));
    expect(await Promise.all(bobs.map((b) => b.first))).toEqual(['hello', 'hello', 'closed']);
    expect(bobs[2]?.code).toBe(4429);

    a1.socket.close();
    await sleep(200);
    const a4 = openLive(api, alice.token, '127.0.1.3');
    expect(await a4.first).toBe('hello');
    for (const live of [a2, a4, b1, ...bobs]) live.socket.close();
  });

  it('answers /api/health within 2 s from a fresh address while one account holds 300 live sockets', async () => {
    const holder = await api.signUp('held_many');
    const sessions: string[] = [holder.token];
    for (let i = 0; i < 3; i += 1) {
      const login = await api.request('POST', '/api/auth/login', {
        body: { email: holder.email, password: holder.password },
      });
      sessions.push(login.json.token as string);
    }
    const held: Live[] = [];
    const probes: { status: number; ms: number }[] = [];
    for (let wave = 0; wave < 10; wave += 1) {
      for (let i = 0; i < 30; i += 1)
        held.push(openLive(api, sessions[i % sessions.length] ?? '', `127.0.2.${1 + (i % 10)}`));
      probes.push(await health(api.url, '127.0.2.99'));
    }
    await Promise.all(held.map((live) => live.first));
    probes.push(await health(api.url, '127.0.2.99'));
    const open = held.filter((live) => live.socket.readyState === WebSocket.OPEN);
    expect(open.length).toBeLessThanOrEqual(3);
    expect(held.filter((live) => live.code !== undefined)).toHaveLength(300 - open.length);
    expect(held.filter((live) => live.code === 4429).length).toBeGreaterThan(200);
    for (const probe of probes) expect(probe.status).toBe(200);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(2_000);
    for (const live of held) live.socket.terminate();
  });
});

describe('POST bodies trickled by a stranger', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi((await sharedDatabase()).db, {
      config: {
        http: {
          host: '127.0.0.1',
          port: 0,
          webDist: '',
          maxConnections: 40,
          maxConnectionsPerAddress: 100,
          minBodyBytesPerSecond: 256,
          bodyGraceSeconds: 1,
        },
      },
    });
  });
  afterAll(async () => {
    await api.close();
    await closeSharedDatabase();
  });

  it('closes 72 POSTs sending one byte every 500 ms after the grace, and /api/health answers within 2 s throughout', async () => {
    const trickles: { socket: net.Socket; closedAfterMs: number | undefined }[] = [];
    const started = Date.now();
    for (let i = 0; i < 72; i += 1) {
      const socket = net.connect({
        host: '127.0.0.1',
        port: Number(new URL(api.url).port),
        localAddress: '127.0.3.1',
      });
      const held = { socket, closedAfterMs: undefined as number | undefined };
      socket.on('error', () => undefined);
      socket.on('close', () => (held.closedAfterMs = Date.now() - started));
      socket.once('connect', () =>
        socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: pool.test\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{',
        ),
      );
      trickles.push(held);
    }
    const trickle = setInterval(() => {
      for (const held of trickles) if (held.closedAfterMs === undefined) held.socket.write(' ');
    }, 500);
    const probes: { status: number; ms: number }[] = [];
    for (let i = 0; i < 6; i += 1) {
      await sleep(500);
      probes.push(await health(api.url, '127.0.3.99'));
    }
    await sleep(1_000);
    clearInterval(trickle);
    for (const probe of probes) expect(probe.status).toBe(200);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(2_000);
    expect(trickles.filter((held) => held.closedAfterMs === undefined)).toEqual([]);
    const metrics = await new Promise<string>((resolve, reject) => {
      http
        .get(`${api.url}/metrics`, { agent: false }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(metrics).toMatch(/manjam_http_slow_bodies_closed_total [1-9]/);
  });
});
