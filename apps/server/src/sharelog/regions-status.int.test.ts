// `manjam regions status` against real nats-server processes: a core server (JetStream domain
// core) and Riyadh's leaf server, the core's share log stream sourcing Riyadh's stream. What the
// operator reads without the `nats` CLI: each region's lag, the accounting consumer's backlog, the
// job feed, from the core and from the region; and a clear answer when no server is there.
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import {
  freePort,
  startNatsCluster,
  type NatsCluster,
  type NatsServerNode,
} from '../../test/support/nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../../test/support/nats-leaf.js';
import { waitUntil } from '../../test/support/processes.js';
import { regionsStatus } from './regions-status.js';
import { ensureRegionalStream, ensureShareLogStream, publishSubject } from './stream.js';

describe('manjam regions status', () => {
  let cluster: NatsCluster;
  let leaf: NatsLeaf;
  let regionNc: NatsConnection;
  const coreConfig = () =>
    parseConfig({
      distributed: { natsUrl: cluster.servers.join(','), region: 'core', leafDomains: ['riyadh'] },
    });
  const riyadhConfig = () =>
    parseConfig({ distributed: { natsUrl: leaf.url, region: 'riyadh', domain: 'riyadh' } });

  const status = async (config: ReturnType<typeof parseConfig>) => {
    const lines: string[] = [];
    const code = await regionsStatus(config, (line) => lines.push(line));
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    cluster = await startNatsCluster({ domain: 'core' });
    leaf = await startNatsLeaf('riyadh', cluster.nodes[0] as NatsServerNode);
    const coreNc = await connect({ servers: cluster.servers });
    await ensureShareLogStream(await coreNc.jetstreamManager(), coreConfig().distributed);
    await coreNc.close();
    regionNc = await connect({ servers: leaf.url });
    const riyadh = riyadhConfig().distributed;
    await ensureRegionalStream(await regionNc.jetstreamManager({ domain: 'riyadh' }), riyadh);
    const js = regionNc.jetstream({ domain: 'riyadh' });
    for (let i = 0; i < 5; i++)
      await js.publish(publishSubject(riyadh, 'shares', 'BTC'), new TextEncoder().encode(`{}`));
  }, 120_000);

  afterAll(async () => {
    await regionNc?.close();
    await leaf?.stop();
    await cluster?.stop();
  });

  it("shows the core's share log with Riyadh's source caught up, no consumer yet and no job feed", async () => {
    await waitUntil(async () => (await status(coreConfig())).text.includes('5 messages'), 30_000, 'sourced');
    const { code, text } = await status(coreConfig());
    expect(code).toBe(0);
    expect(text).toMatch(/share log MANJAM_SHARELOG: 5 messages, last [\d.]+ s ago, replicas 1/);
    expect(text).toMatch(/source MANJAM_SHARELOG-riyadh: lag 0 messages, last active [\d.]+ s ago/);
    expect(text).toContain('accounting consumer manjam-core-db: not created yet');
    expect(text).toContain('job feed MANJAM_JOBS: not created yet');
  });

  it("shows a region its own stream on its leaf and the core's view, through the leaf", async () => {
    const { code, text } = await status(riyadhConfig());
    expect(code).toBe(0);
    expect(text).toContain(
      'region riyadh: stream MANJAM_SHARELOG-riyadh on its leaf, 5 messages, last sequence 5',
    );
    expect(text).toMatch(/source MANJAM_SHARELOG-riyadh: lag 0 messages/);
  });

  it('says when the region is cut from the core, and exits 1', async () => {
    await leaf.link.cut();
    try {
      const { code, text } = await status(riyadhConfig());
      expect(code).toBe(1);
      expect(text).toContain('region riyadh: stream MANJAM_SHARELOG-riyadh on its leaf, 5 messages');
      expect(text).toMatch(/core \(core\): does not answer/);
    } finally {
      await leaf.link.restore();
    }
  });

  it('says that no NATS server answers, or that the pool runs on one machine', async () => {
    const nobody = await status(
      parseConfig({ distributed: { natsUrl: `nats://127.0.0.1:${await freePort()}` } }),
    );
    expect(nobody.code).toBe(1);
    expect(nobody.text).toMatch(/^regions status: no NATS server answers at nats:\/\/127\.0\.0\.1:\d+/);
    const single = await status(parseConfig({}));
    expect(single.code).toBe(2);
    expect(single.text).toContain('this pool runs on one machine');
  });
});
