// Failover and failback on a real bcoin node: the primary is reached through a TCP relay the test
// cuts (a network outage to the operator's first node), the backup directly.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { startTcpRelay, type TcpRelay } from '../../../../test/support/nats-link.js';
import { ChainNode } from './node.js';
import { FAILBACK_PROBE_MS, NodeSet } from './node-set.js';

const logger = pino({ level: 'silent' });

describe('the nodes of one coin on a real bcoin chain', () => {
  let chain: DevChain;
  let relay: TcpRelay;
  let nodes: NodeSet;
  let clock = Date.now();

  beforeAll(async () => {
    chain = await startBtcTestChain({ logger });
    const port = Number(new URL(chain.rpc.url).port);
    relay = await startTcpRelay(port);
    const viaRelay = { ...chain.rpc, url: `http://127.0.0.1:${relay.port}/` };
    const primary = new ChainNode({ coin: 'BTC', rpc: viaRelay, timeoutMs: 2_000 });
    const backup = new ChainNode({ coin: 'BTC', rpc: chain.rpc, timeoutMs: 2_000 });
    nodes = new NodeSet([primary, backup], logger, () => clock);
  });
  afterAll(async () => {
    nodes?.close();
    await relay?.stop();
    await chain?.stop();
  });

  it('takes templates from the backup while the primary is cut off, and returns to the primary once it answers with the same tip', async () => {
    const [primary, backup] = nodes.nodes;
    expect((await nodes.getBlockTemplate()).height).toBeGreaterThan(0);
    expect(nodes.current).toBe(primary);

    await relay.cut();
    const started = Date.now();
    const during = await nodes.getBlockTemplate();
    expect(nodes.current).toBe(backup);
    expect(during.previousblockhash).toBe(await backup?.getBestBlockHash());
    process.stdout.write(
      `[figure] failover: a template from the backup ${Date.now() - started} ms after the primary was cut\n`,
    );

    await relay.restore();
    await chain.mine(1);
    // One probe per FAILBACK_PROBE_MS; a probe that gets no answer within its 2 s (a loaded
    // machine) leaves the backup in use until the next, as it would in production.
    let probes = 0;
    while (nodes.current !== primary && probes < 5) {
      probes += 1;
      clock += FAILBACK_PROBE_MS;
      await nodes.getBlockTemplate();
      await nodes.settled();
    }
    expect(nodes.current).toBe(primary);
    const after = await nodes.getBlockTemplate();
    expect(after.previousblockhash).toBe(await primary?.getBestBlockHash());
  });
});
