/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
// The operator console's Stratum ports over real HTTP, on PGlite and PostgreSQL: each live port
// with its connections, accepted shares per second over the last minute and hashrate over 10
// minutes: the port's own where this process runs its listener, else its coin's from the recorded
// shares; nobody but an operator sees any of it.
import { once } from 'node:events';
import net from 'node:net';
import type { OperatorPort } from '@manjam/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWalletMiner, insertShare, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { signedInOperator } from '../../test/support/operator.js';
import { hashrateFromDifficulty } from '../services/shared/hashrate.js';
import { hashrateFromDifficulty as hashrateOfSum } from '../shares/hashrate.js';
import {
  countPortShare,
  createStratumListener,
  listenerFigures,
  listenStratum,
  seatPort,
} from '../stratum/listener.js';

describeEachDatabase('the operator console: connections, shares/s and hashrate per Stratum port', (getDb) => {
  let api: TestApi;
  let token: string;
  let listener: net.Server;
  let stratumPort = 0;
  const miners: net.Socket[] = [];
  /** The listener's ends of the miners' connections, where the share path counts a port's accepted shares. */
  const seated: net.Socket[] = [];
  const openConnections = (): number => listenerFigures(listener, 'sha256d').connections;
  beforeAll(async () => {
    // BTC's V1 port is a real Stratum listener of this process, counted by its seats as the
    // family's ports.ts counts it (listenerFigures, read at the API's clock); the V2 and LTC ports
    // are only configured here (run by another process).
    listener = createStratumListener(undefined, (socket) => seated.push(socket));
    seatPort(listener, { maxConnections: 100, maxPerAddress: 100, idleMs: 60_000 });
    stratumPort = await listenStratum(listener, '127.0.0.1', 0);
    api = await startTestApi(getDb(), {
      ports: () => [
        {
          coin: 'BTC',
          port: stratumPort,
          tls: false,
          scheme: 'pps-plus',
          protocol: 'v1',
          ...listenerFigures(listener, 'sha256d', api.clock.now),
        },
        { coin: 'BTC', port: 34254, tls: false, scheme: 'pps-plus', protocol: 'v2', connections: 1 },
        { coin: 'LTC', port: 4444, tls: false, scheme: 'pps-plus' },
      ],
    });
    ({ token } = await signedInOperator(api, getDb()));
  });
  afterAll(async () => {
    for (const socket of miners) socket.destroy();
    await api.close();
    await new Promise((resolve) => listener.close(resolve));
  });

  /** Connects a miner to the listener and waits until the port has seated it. */
  const connectMiner = async (): Promise<void> => {
    const before = openConnections();
    const socket = net.connect(stratumPort, '127.0.0.1');
    miners.push(socket);
    await once(socket, 'connect');
    await expect.poll(() => openConnections()).toBe(before + 1);
  };

  it("shows each port's open connections, and its own accepted shares per second and hashrate where its listener runs, its coin's recorded ones where it does not", async () => {
    // 30 s into a minute, 10 minutes after the port opened: "the last minute" of the recorded
    // shares is the whole previous minute and these 30 s (90 s); the port's own count covers the
    // five whole 10 s buckets before now (50 s).
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 630_000;
    api.clock.now = now;
    await connectMiner();
    await connectMiner();
    // The port's own: 100 accepted shares of difficulty 4 on its two connections in the last 50 s
    // (2 a second), counted as the share path counts them (stratum/share-book.ts).
    for (let i = 0; i < 100; i++) countPortShare(seated[i % 2]!, 4, now - 50_000 + i * 500);
    // Its first share came 50 s ago: the 10-minute rate is over the time they have come, at least a minute.
    const portHashrate = hashrateOfSum(100 * 4, 60, 'sha256d');
    const miner = await createWalletMiner(getDb(), 'BTC', regtestAddress('ports-a'));
    const share = (at: number, difficulty: number) =>
      insertShare(getDb(), 'BTC', miner, {
        difficulty,
        networkDifficulty: 1e6,
        height: 101,
        scheme: 'pps-plus',
        at: new Date(at),
      });
    // 180 shares in the last 90 s (2 a second), and 10 more 5 minutes ago (in the 10-minute hashrate only).
    for (let i = 0; i < 180; i++) await share(now - 89_000 + i * 450, 4);
    for (let i = 0; i < 10; i++) await share(now - 300_000, 8);

    const res = await api.request('GET', '/api/operator/ports', { token });
    expect(res.status).toBe(200);
    expect(res.json.asOf).toBe(new Date(now).toISOString());
    const ports = res.json.ports as OperatorPort[];
    const hashrate = hashrateFromDifficulty('BTC', 180 * 4 + 10 * 8, 600);
    expect(hashrate).toBeGreaterThan(0);
    expect(ports.map(({ hashrate: h, ...rest }) => ({ ...rest, hashrate: Math.round(h) }))).toEqual([
      {
        coin: 'BTC',
        algorithm: 'SHA-256',
        port: stratumPort,
        protocol: 'v1',
        tls: false,
        connections: 2,
        scope: 'port',
        sharesPerSecond: 2,
        hashrate: Math.round(portHashrate),
      },
      {
        coin: 'BTC',
        algorithm: 'SHA-256',
        port: 34254,
        protocol: 'v2',
        tls: false,
        connections: 1,
        scope: 'coin',
        sharesPerSecond: 2,
        hashrate: Math.round(hashrate),
      },
      // No listener in this process: its connections are not known here (null, never 0).
      {
        coin: 'LTC',
        algorithm: 'Scrypt',
        port: 4444,
        protocol: 'v1',
        tls: false,
        connections: null,
        scope: 'coin',
        sharesPerSecond: 0,
        hashrate: 0,
      },
    ]);

    // A miner that leaves is no longer counted.
    miners.pop()?.destroy();
    await expect.poll(() => openConnections()).toBe(1);
    const after = await api.request('GET', '/api/operator/ports', { token });
    expect((after.json.ports as OperatorPort[]).map((p) => p.connections)).toEqual([1, 1, null]);
  });

  it('answers a visitor and a signed-in miner as if the route did not exist', async () => {
    const miner = await api.signUp();
    for (const bearer of [undefined, miner.token]) {
      const res = await api.request('GET', '/api/operator/ports', bearer ? { token: bearer } : {});
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('route-not-found');
    }
  });
});
