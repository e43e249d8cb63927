import { describe, expect, it } from 'vitest';
import { deviceTypeOfAgent } from './worker-agents.js';

describe('the device a mining software names', () => {
  it.each([
    ['cpuminer/2.5.1', 'cpu'],
    ['cpuminer-opt-23.15', 'cpu'],
    ['XMRig/6.21.0 (Linux x86_64) libuv/1.44.2 gcc/12.2.0', 'cpu'],
    ['xmrig-cuda/6.17.0', 'gpu'],
    ['lolMiner 1.88', 'gpu'],
    ['BzMiner/v21.1.3', 'gpu'],
    ['TeamRedMiner/0.10.21', 'gpu'],
    ['sgminer/5.6.1', 'gpu'],
    ['bmminer/2.0.0', 'asic'],
    ['cgminer/4.11.1', 'asic'],
    ['IceRiverMiner-v1.1', 'asic'],
    ['Braiins OS 2024-01-01 bosminer-plus', 'asic'],
    ['Whatsminer/v1.0', 'asic'],
  ])('"%s" runs on a %s', (agent, type) => {
    expect(deviceTypeOfAgent(agent)).toBe(type);
  });

  it.each(['', 'SRBMiner-MULTI/2.4.0', 'NerdMiner', 'my-own-miner/1.0', 'notcpuminer'])(
    '"%s" says nothing',
    (agent) => {
      expect(deviceTypeOfAgent(agent)).toBeNull();
    },
  );
});
