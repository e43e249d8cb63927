import { describe, expect, it } from 'vitest';
import type { BlockSubmitResult } from '../stratum/source.js';
import { REGION_BLOCKS_KEPT, RegionBlocks } from './core-blocks.js';

const accepted: BlockSubmitResult = { status: 'accepted', nodeResult: null, tipHash: 'aa' };

function deferred(): { promise: Promise<BlockSubmitResult>; settle: (r: BlockSubmitResult) => void } {
  let settle: (r: BlockSubmitResult) => void = () => undefined;
  const promise = new Promise<BlockSubmitResult>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe("the core's memory of the blocks regions sent it", () => {
  it('submits a block sent twice once, and answers both requests with its verdict', async () => {
    const blocks = new RegionBlocks();
    let submits = 0;
    const pending = deferred();
    const submit = () => {
      submits++;
      return pending.promise;
    };
    const first = blocks.submit('b1', submit);
    const second = blocks.submit('b1', submit);
    expect([first.again, second.again]).toEqual([false, true]);
    pending.settle(accepted);
    expect(await first.verdict).toEqual(accepted);
    expect(await second.verdict).toEqual(accepted);
    expect(submits).toBe(1);
  });

  it('says unknown, then submitting, then done with the verdict', async () => {
    const blocks = new RegionBlocks();
    expect(blocks.status('b2')).toEqual({ state: 'unknown' });
    const pending = deferred();
    const { verdict } = blocks.submit('b2', () => pending.promise);
    expect(blocks.status('b2')).toMatchObject({ state: 'submitting' });
    pending.settle(accepted);
    await verdict;
    expect(blocks.status('b2')).toEqual({ state: 'done', result: accepted });
  });

  it('forgets a block whose outcome was unknown, so the next request tries the nodes again', async () => {
    const blocks = new RegionBlocks();
    await blocks.submit('b3', () => Promise.reject(new Error('node down'))).verdict;
    expect(blocks.status('b3')).toEqual({ state: 'unknown' });
    expect(blocks.submit('b3', () => Promise.resolve(accepted)).again).toBe(false);
  });

  it(`keeps the last ${REGION_BLOCKS_KEPT} blocks`, async () => {
    const blocks = new RegionBlocks();
    for (let i = 0; i <= REGION_BLOCKS_KEPT; i++)
      await blocks.submit(`h${i}`, () => Promise.resolve(accepted)).verdict;
    expect(blocks.status('h0')).toEqual({ state: 'unknown' });
    expect(blocks.status(`h${REGION_BLOCKS_KEPT}`)).toEqual({ state: 'done', result: accepted });
  });
});
