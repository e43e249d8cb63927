import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ChainNode } from './node.js';
import { FAILBACK_PROBE_MS, NodeSet } from './node-set.js';
import { RpcError } from '../../../rpc/json-rpc.js';

const logger = pino({ level: 'silent' });

/** A ChainNode whose calls are scripted (no network). */
function scripted(url: string, answer: () => Promise<string>): ChainNode & { calls: number } {
  const node = new ChainNode({ coin: 'BTC', rpc: { url, user: 'u', password: 'p' } }) as ChainNode & {
    calls: number;
  };
  node.calls = 0;
  node.getBestBlockHash = () => {
    node.calls++;
    return answer();
  };
  return node;
}
const refused = () =>
  Promise.reject(new RpcError('transport', 'getbestblockhash', 'cannot reach node (ECONNREFUSED)'));

describe('several nodes of one coin', () => {
  it('asks the backup when the first node cannot be reached, and keeps asking the one that answered', async () => {
    const first = scripted('http://127.0.0.1:1/', refused);
    const second = scripted('http://127.0.0.1:2/', () => Promise.resolve('aa'));
    const nodes = new NodeSet([first, second], logger);
    expect(await nodes.getBestBlockHash()).toBe('aa');
    expect(await nodes.getBestBlockHash()).toBe('aa');
    expect(nodes.current).toBe(second);
    expect([first.calls, second.calls]).toEqual([1, 2]);
  });

  it('returns to the primary once it has the backup’s tip again, asking it at most every 30 s', async () => {
    let clock = 1_000_000;
    let primaryUp = false;
    let primaryTip = 'old';
    const first = scripted('http://127.0.0.1:1/', () =>
      primaryUp ? Promise.resolve(primaryTip) : refused(),
    );
    const second = scripted('http://127.0.0.1:2/', () => Promise.resolve('tip'));
    const nodes = new NodeSet([first, second], logger, () => clock);
    expect(await nodes.getBestBlockHash()).toBe('tip');
    expect(nodes.current).toBe(second);
    // Back up but still syncing (another tip): the backup keeps serving.
    primaryUp = true;
    clock += FAILBACK_PROBE_MS;
    await nodes.getBestBlockHash();
    await nodes.settled();
    expect(nodes.current).toBe(second);
    // Synced, but asked again only after the probe interval.
    primaryTip = 'tip';
    clock += FAILBACK_PROBE_MS - 1;
    await nodes.getBestBlockHash();
    await nodes.settled();
    expect(nodes.current).toBe(second);
    clock += 1;
    await nodes.getBestBlockHash();
    await nodes.settled();
    expect(nodes.current).toBe(first);
    const before = first.calls;
    expect(await nodes.getBestBlockHash()).toBe('tip');
    expect(first.calls).toBe(before + 1);
  });

  it('fails with the first node’s error when no node answers', async () => {
    const nodes = new NodeSet(
      [scripted('http://127.0.0.1:1/', refused), scripted('http://127.0.0.1:2/', refused)],
      logger,
    );
    await expect(nodes.getBestBlockHash()).rejects.toThrow('ECONNREFUSED');
  });
});
