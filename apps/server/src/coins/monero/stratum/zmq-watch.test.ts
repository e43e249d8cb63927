import { describe, expect, it } from 'vitest';
import { moneroZmqEvent } from './zmq-watch.js';

describe("monerod's ZMQ messages", () => {
  it('tells a new tip and a pool transaction from the topic before the colon', () => {
    // As monerod 0.18.0.0 published them on the regtest dev chain.
    const tip =
      'json-minimal-chain_main:{"first_height":1,"first_prev_id":"418015bb9ae982a1975da7d79277c2705727a56894ba0fb246adaabb1f4632e3","ids":["d72fd5da847c7e55cdc045c21d19c045035a4710206045e161f87fc3faf23bb0"]}';
    expect(moneroZmqEvent(Buffer.from(tip))).toBe('tip');
    expect(
      moneroZmqEvent(Buffer.from('json-minimal-txpool_add:[{"id":"ab","blob_size":1,"weight":1,"fee":1}]')),
    ).toBe('transactions');
    expect(moneroZmqEvent(Buffer.from('json-full-miner_data:{"major_version":16}'))).toBeUndefined();
    expect(moneroZmqEvent(Buffer.from('no colon at all'))).toBeUndefined();
  });
});
