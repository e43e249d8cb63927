import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

/** Opens the live socket and collects its messages. */
function connect(
  api: TestApi,
  token: string,
): Promise<{
  socket: WebSocket;
  messages: { type: string; [k: string]: unknown }[];
  closed: Promise<number>;
}> {
  const socket = new WebSocket(
    `${api.url.replace('http', 'ws')}/api/live?token=${encodeURIComponent(token)}`,
  );
  const messages: { type: string; [k: string]: unknown }[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      messages.push(JSON.parse(data.toString('utf8')) as { type: string });
      if (messages.length === 1) resolve({ socket, messages, closed });
    });
    socket.on('error', reject);
    void closed.then(() => resolve({ socket, messages, closed }));
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
}

describeEachDatabase('live updates over WebSocket', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  it("pushes the signed-in user's own shares, workers, blocks and payouts, and nobody else's", async () => {
    const alice = await api.signUp('alice_live');
    const bob = await api.signUp('bob_live');
    const live = await connect(api, alice.token);
    expect(live.messages[0]).toMatchObject({ type: 'hello', userId: alice.id });

    api.events.emit('shares.flushed', { coin: 'BTC', payeeId: 9, userId: bob.id, workerIds: [5], count: 3 });
    api.events.emit('worker.connected', {
      coin: 'BTC',
      workerId: 5,
      userId: bob.id,
      login: 'bob_live.rig',
      payeeKey: `BTC:u:${bob.id}`,
      worker: 'rig',
      agent: '',
    });
    api.events.emit('shares.flushed', {
      coin: 'BTC',
      payeeId: 1,
      userId: alice.id,
      workerIds: [1, 2],
      count: 7,
    });
    api.events.emit('worker.disconnected', {
      coin: 'LTC',
      workerId: 3,
      userId: alice.id,
      login: 'alice_live.l3',
    });
    api.events.emit('block.found', {
      coin: 'BTC',
      height: 321,
      hash: 'ab'.repeat(32),
      status: 'pending',
      finderUserId: alice.id,
    });
    api.events.emit('payout.sent', {
      coin: 'BTC',
      payeeId: 1,
      userId: alice.id,
      amount: 1_234_567n,
      txid: 'cd'.repeat(32),
    });
    api.events.emit('payout.sent', {
      coin: 'BTC',
      payeeId: 2,
      userId: bob.id,
      amount: 1n,
      txid: 'ef'.repeat(32),
    });
    await until(() => live.messages.length >= 5);

    expect(live.messages.slice(1).map((m) => m.type)).toEqual(['share', 'worker', 'block', 'payout']);
    expect(live.messages[1]).toMatchObject({ coin: 'BTC', count: 7, workerIds: [1, 2] });
    expect(live.messages[2]).toMatchObject({ coin: 'LTC', status: 'offline', name: 'alice_live.l3' });
    expect(live.messages[4]).toMatchObject({ amount: '1234567', txId: 'cd'.repeat(32) });
    expect(JSON.stringify(live.messages)).not.toContain('bob_live');
    live.socket.close();
    await live.closed;
  });

  it('closes the socket with 4401 for a missing or revoked token', async () => {
    const bad = await connect(api, 'nope-nope-nope-nope-nope-nope');
    expect(await bad.closed).toBe(4401);
    const user = await api.signUp();
    await api.request('POST', '/api/auth/logout', { token: user.token });
    const revoked = await connect(api, user.token);
    expect(await revoked.closed).toBe(4401);
  });
});
