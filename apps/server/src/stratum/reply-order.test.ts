import { describe, expect, it } from 'vitest';
import { ReplyOrder } from './reply-order.js';

function order() {
  const written: string[] = [];
  let settled = 0;
  const o = new ReplyOrder(
    (line) => written.push(line),
    () => settled++,
  );
  return { o, written, settled: () => settled };
}

describe('reply order of one connection', () => {
  it('writes a reply at once when no earlier request is unanswered', () => {
    const { o, written } = order();
    o.send('a');
    expect(written).toEqual(['a']);
    expect(o.pending).toBe(false);
  });

  it('answers shares finished out of order (worker threads) in the order the miner sent them', () => {
    const { o, written, settled } = order();
    const first = o.ticket();
    const second = o.ticket();
    o.send('refused at once');
    const third = o.ticket();
    o.answer(third, 'third');
    o.answer(second, 'second');
    expect(written).toEqual([]);
    o.answer(first, 'first');
    expect(written).toEqual(['first', 'second', 'refused at once', 'third']);
    expect(settled()).toBe(1);
    expect(o.pending).toBe(false);
    o.send('next');
    expect(written.at(-1)).toBe('next');
  });

  it('writes what is ready as soon as the oldest ticket is answered, and holds the rest', () => {
    const { o, written, settled } = order();
    const first = o.ticket();
    o.send('behind first');
    const second = o.ticket();
    o.send('behind second');
    o.answer(first, 'first');
    expect(written).toEqual(['first', 'behind first']);
    expect(o.held).toBe(2);
    expect(settled()).toBe(0);
    o.answer(second, 'second');
    expect(written).toEqual(['first', 'behind first', 'second', 'behind second']);
    expect(settled()).toBe(1);
  });

  it('ignores a second answer to the same ticket and answers to old tickets', () => {
    const { o, written } = order();
    const first = o.ticket();
    o.answer(first, 'first');
    o.answer(first, 'again');
    const second = o.ticket();
    o.answer(first, 'stale');
    o.answer(second, 'second');
    expect(written).toEqual(['first', 'second']);
  });
});
