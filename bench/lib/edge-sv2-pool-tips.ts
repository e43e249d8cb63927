// The sv2-pool drill's new-tip figure: new tip -> last of N miners, V2 extended channels against
// V1 sessions on one pool, with the miners in a process of their own (lib/tip-clients.ts) so the
// pool's work alone decides when the last connection's first bytes arrive. Rounds alternate: in
// each, N V2 channels are opened, get `tips` new blocks and are closed, then N V1 sessions the
// same; only one dialect is connected at a time, so neither waits behind the other's writes (the
// pool writes a tip to its sessions in the order they connected) or the other's decoding in the
// miners' process. Three figures per tip, from before `generatetoaddress` on bcoin: the pool done
// writing the new work to all N (its `template.new` event, emitted after the broadcast), the last
// miner's first bytes, and the last miner holding the work decoded.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { PoolOnChain } from '../../apps/server/test/support/coins/bitcoin/stratum/harness.js';
import { nextMessage } from './child-message.js';
import { Report, fixed, load, percentile } from './report.js';
import type { Dialect, TipClientsMessage, TipClientsRequest } from './tip-clients.js';

const NAME = 'tip clients';
const clock = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => percentile(Float64Array.from(xs).sort(), 50);
const list = (xs: number[]): string => xs.map((x) => fixed(x, 1)).join(' / ');

interface Tip {
  written: number;
  bytes: number;
  decoded: number;
}

export async function tipPhase(
  report: Report,
  pool: PoolOnChain,
  authority: Uint8Array,
  n: number,
  address: string,
  rounds: number,
  tips: number,
): Promise<void> {
  const child = fork(fileURLToPath(new URL('./tip-clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T extends TipClientsMessage['type']>(request: TipClientsRequest, answer: T) => {
    const reply = nextMessage<TipClientsMessage, T>(child, answer, NAME);
    child.send(request);
    return reply;
  };
  let writtenAt = 0;
  const stopListening = pool.events.on('template.new', (e) => {
    if (e.newTip && writtenAt === 0) writtenAt = clock();
  });
  const ports: Record<Dialect, number> = { v2: pool.ports[1]!, v1: pool.ports[0]! };
  const all: Record<Dialect, Tip[]> = { v2: [], v1: [] };
  const perRound: { v2: Tip[]; v1: Tip[] }[] = [];
  report.line(
    `   new tip -> last of ${n}, miners in their own process, one dialect connected at a time: ${rounds} rounds of ` +
      `${tips} tip(s) to ${n} V2 channels then ${tips} to ${n} V1 sessions (ms from generatetoaddress)`,
  );
  try {
    for (let round = 1; round <= rounds; round++) {
      const figures: { v2: Tip[]; v1: Tip[] } = { v2: [], v1: [] };
      for (const dialect of ['v2', 'v1'] as const) {
        const opened = await ask(
          { type: 'open', dialect, port: ports[dialect], authority: bytesToHex(authority), n, address },
          'opened',
        );
        await sleep(1_000); // the last opens' answers and jobs settle
        for (let k = 0; k < tips; k++) {
          const arrived = nextMessage<TipClientsMessage, 'arrived'>(child, 'arrived', NAME);
          await ask({ type: 'arm' }, 'armed');
          writtenAt = 0;
          const t0 = clock();
          await pool.node.rpc.call<string[]>('generatetoaddress', [1, address]);
          const got = await arrived;
          figures[dialect].push({
            written: writtenAt - t0,
            bytes: got.lastBytes - t0,
            decoded: got.lastDecoded - t0,
          });
          await sleep(500); // the full template after the coinbase-only job
        }
        await ask({ type: 'close' }, 'closed');
        await sleep(1_500); // the pool hears the closes before the other dialect connects
        const f = figures[dialect];
        report.line(
          `   round ${round} ${dialect === 'v2' ? 'V2 extended' : 'V1         '} (${n} opened in ${fixed(opened.seconds, 1)} s, load ${load()}): ` +
            `pool wrote all ${list(f.map((t) => t.written))}; first bytes at the last ${list(f.map((t) => t.bytes))}; ` +
            `decoded there ${list(f.map((t) => t.decoded))}`,
        );
        all[dialect].push(...f);
      }
      perRound.push(figures);
    }
    report.line(`   medians, ms (V2 / V1 = ratio):`);
    const row = (label: string, v2: Tip[], v1: Tip[]): void => {
      const cell = (pick: (t: Tip) => number): string => {
        const a = median(v2.map(pick));
        const b = median(v1.map(pick));
        return `${fixed(a, 1)} / ${fixed(b, 1)} = ${fixed(a / b, 2)}`;
      };
      report.line(
        `   ${label.padEnd(10)} pool wrote all ${cell((t) => t.written)}; first bytes at the last ${cell((t) => t.bytes)}; ` +
          `decoded there ${cell((t) => t.decoded)}`,
      );
    };
    perRound.forEach((f, i) => row(`round ${i + 1}`, f.v2, f.v1));
    row('all', all.v2, all.v1);
  } finally {
    stopListening();
    child.send({ type: 'stop' } satisfies TipClientsRequest);
  }
}
