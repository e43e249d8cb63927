// Drill phase `sv2-pool`, its hostile part: connections on the pool's V2 port that send what an
// attacker on the path or a broken miner could, K of each kind, while an honest V2 miner keeps
// submitting shares; printed: how many the pool closed and how fast (from the client's connect,
// its handshake crypto included), the faults the pool counted, and the honest miner's shares.
import net from 'node:net';
import { bitsToTarget } from '@manjam/protocol';
import { findNonce, Sv2TestClient } from '../../apps/server/test/support/coins/bitcoin/stratum-v2/client.js';
import { u256ToTarget } from '../../apps/server/src/coins/bitcoin/stratum-v2/work.js';
import type { PoolOnChain } from '../../apps/server/test/support/coins/bitcoin/stratum/harness.js';
import { v2Figures } from '../../apps/server/test/support/coins/bitcoin/stratum-v2/figures.js';
import { fixed, int, type Report } from './report.js';

type Hostile = (pool: PoolOnChain, authority: Uint8Array) => Promise<Sv2TestClient | net.Socket>;

/** What an attacker on the path (or a broken miner) sends, each on its own connection. */
const HOSTILE: Record<string, Hostile> = {
  'garbage after the handshake': async (pool, authority) => {
    const c = await Sv2TestClient.connect(pool.ports[1] as number, authority);
    c.writeRaw(Buffer.from('{"id":1,"method":"mining.subscribe","params":[]}\n'.repeat(2)));
    return c;
  },
  'truncated frame, then FIN': async (pool, authority) => {
    const c = await Sv2TestClient.connect(pool.ports[1] as number, authority);
    c.writeRaw(Buffer.alloc(10, 0x41));
    c.socket.end();
    return c;
  },
  'replayed SetupConnection': async (pool, authority) => {
    const c = await Sv2TestClient.connect(pool.ports[1] as number, authority);
    const sent: Buffer[] = [];
    const write = c.socket.write.bind(c.socket);
    c.socket.write = (chunk: Buffer) => (sent.push(Buffer.from(chunk)), write(chunk));
    await c.setup();
    c.writeRaw(sent[0]!);
    return c;
  },
  'over-long frame (20,000 B stated)': async (pool, authority) => {
    const c = await Sv2TestClient.connect(pool.ports[1] as number, authority);
    c.sendFrame({ extensionType: 0, msgType: 0x1b, payload: new Uint8Array(20_000) });
    return c;
  },
  'a message only pools send': async (pool, authority) => {
    const c = await Sv2TestClient.connect(pool.ports[1] as number, authority);
    c.send({ type: 'SetupConnectionError', flags: 0, errorCode: 'x' });
    return c;
  },
  'silent after TCP connect': (pool) => {
    const socket = net.connect({ port: pool.ports[1] as number, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    return Promise.resolve(socket);
  },
};

/** K connections of each hostile kind while `honest` miners keep mining: closes, time to close, honest shares. */
export async function faultPhase(
  report: Report,
  pool: PoolOnChain,
  authority: Uint8Array,
  k: number,
  address: string,
) {
  const honest = await Sv2TestClient.connect(pool.ports[1] as number, authority);
  await honest.setup();
  const opened = await honest.open('extended', `${address}.v2honest`);
  if (!opened.ok) throw new Error(opened.errorCode);
  const work = await opened.work;
  const target = u256ToTarget(opened.target);
  const net0 = bitsToTarget(work.prevHash.nbits.toString(16).padStart(8, '0'));
  const extranonce = Buffer.alloc(opened.extranonceSize);
  let nonce = 0;
  let seq = 0;
  const mining = setInterval(() => {
    const f = findNonce(
      work,
      { extranoncePrefix: opened.extranoncePrefix, extranonce },
      (h) => h <= target && h > net0,
      nonce,
    );
    nonce = f.nonce + 1;
    honest.send({
      type: 'SubmitSharesExtended',
      channelId: opened.channelId,
      sequenceNumber: ++seq,
      jobId: work.job.jobId,
      nonce: f.nonce,
      ntime: f.ntime,
      version: f.version,
      extranonce,
    });
  }, 2);
  const faults0 = { ...v2Figures(pool.stratum).faults };
  for (const [name, open] of Object.entries(HOSTILE)) {
    const closeMs: number[] = [];
    await Promise.all(
      Array.from({ length: k }, async () => {
        const t0 = performance.now();
        const c = await open(pool, authority);
        const socket = c instanceof Sv2TestClient ? c.socket : c;
        await new Promise((resolve) => (socket.destroyed ? resolve(null) : socket.once('close', resolve)));
        closeMs.push(performance.now() - t0);
      }),
    );
    closeMs.sort((a, b) => a - b);
    report.line(
      `   ${name.padEnd(32)} ${k}/${k} closed by the pool, p50 ${fixed(closeMs[k >> 1]!, 1)} ms, max ${fixed(closeMs[k - 1]!, 1)} ms`,
    );
  }
  clearInterval(mining);
  await new Promise((r) => setTimeout(r, 200));
  const faults = v2Figures(pool.stratum).faults;
  const counted = Object.entries(faults)
    .map(([kind, n]) => `${kind} ${int(n - (faults0[kind] ?? 0))}`)
    .join(', ');
  const accepted = honest.messages.reduce(
    (t, m) => t + (m.type === 'SubmitSharesSuccess' ? m.newSubmitsAcceptedCount : 0),
    0,
  );
  report.line(`   counted faults: ${counted}`);
  report.line(
    `   honest V2 miner meanwhile: ${int(accepted)} of ${int(seq)} shares accepted, connection ${honest.closed ? 'LOST' : 'kept'}`,
  );
  honest.close();
}
