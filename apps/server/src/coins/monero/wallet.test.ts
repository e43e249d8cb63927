import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonWithBigInts, RpcError } from '../../rpc/json-rpc.js';
import { MoneroRpcClient } from './rpc.js';
import { isInsufficientFunds, isNodeRejection } from '../../accounting/chain.js';
import {
  fromMoneroTransfer,
  MONERO_MAX_DESTINATIONS,
  MoneroAccountingChain,
  type MoneroTransfer,
} from './wallet.js';
import { limitToOutputs, type PlannedPayout } from '../../accounting/payout-plan.js';

const AMOUNTS = ['amount', 'fee', 'balance', 'unlocked_balance'];
/** Addresses of a regtest outside wallet (monero-wallet-rpc 0.18: get_address, make_integrated_address). */
const STANDARD =
  '47DofWYtPccaZyQCsGfDbRgnLhQh9GKkcLypfTkBaELZZvsbrDybKmcYxbeWFw4WgS6JcEXxDsfUniXABm6D2XPSJjhtdJ4';
const INTEGRATED_SMALL =
  '4GvUgKNNzt8aZyQCsGfDbRgnLhQh9GKkcLypfTkBaELZZvsbrDybKmcYxbeWFw4WgS6JcEXxDsfUniXABm6D2XPSTNduDfWgd8L1pd5ukp';
/** The same keys with payment id 0102030405060708 (encodeMoneroAddress). */
const INTEGRATED_LARGE =
  '4GvUgKNNzt8aZyQCsGfDbRgnLhQh9GKkcLypfTkBaELZZvsbrDybKmcYxbeWFw4WgS6JcEXxDsfUniXABm6D2XPSTG8pfi7yVdp1yFfxBE';

describe('Monero wallet amounts', () => {
  it('reads atomic amounts above 2^53, up to 2^64 - 1, to the unit', () => {
    const text =
      '{"id":1,"jsonrpc":"2.0","result":{"balance": 18446744073709551615,"unlocked_balance":9007199254740993,' +
      '"blocks_to_unlock":0}}';
    const body = parseJsonWithBigInts(text, AMOUNTS) as { result: Record<string, unknown> };
    expect(body.result).toEqual({
      balance: 18_446_744_073_709_551_615n,
      unlocked_balance: 9_007_199_254_740_993n,
      blocks_to_unlock: 0,
    });
    // The plain parse loses the unit: this is why the amounts are read from the text.
    expect(
      BigInt((JSON.parse(text) as { result: { unlocked_balance: number } }).result.unlocked_balance),
    ).not.toBe(9_007_199_254_740_993n);
  });

  it('reads the amounts nested in a transfer list and leaves heights, and look-alikes inside notes, alone', () => {
    const text = JSON.stringify({
      out: [
        {
          txid: 'ab',
          amount: 1,
          fee: 2,
          height: 100,
          note: '"amount":5 is not an amount',
          destinations: [{ address: 'x', amount: 3 }],
        },
      ],
    }).replace('"amount":3', '"amount":12345678901234567890');
    expect(parseJsonWithBigInts(text, AMOUNTS)).toEqual({
      out: [
        {
          txid: 'ab',
          amount: 1n,
          fee: 2n,
          height: 100,
          note: '"amount":5 is not an amount',
          destinations: [{ address: 'x', amount: 12_345_678_901_234_567_890n }],
        },
      ],
    });
  });

  it('describes what the wallet sent by its destinations, with its note as the comment', () => {
    const sent: MoneroTransfer = {
      txid: 'aa',
      type: 'out',
      address: 'pool',
      amount: 12n,
      fee: 3n,
      destinations: [
        { address: 'a', amount: 5n },
        { address: 'b', amount: 7n },
      ],
      confirmations: 4,
      height: 100,
      timestamp: 1_795_666_063,
      note: 'manjam-payout:XMR:1',
    };
    expect(fromMoneroTransfer(sent)).toEqual({
      txid: 'aa',
      confirmations: 4,
      time: 1_795_666_063,
      comment: 'manjam-payout:XMR:1',
      outputs: [
        { address: 'a', amount: 5n },
        { address: 'b', amount: 7n },
      ],
    });
    expect(
      fromMoneroTransfer({ ...sent, type: 'pending', confirmations: undefined, note: '' }),
    ).toMatchObject({
      confirmations: 0,
      comment: undefined,
    });
    expect(fromMoneroTransfer({ ...sent, type: 'failed' }).confirmations).toBe(-1);
    expect(fromMoneroTransfer({ ...sent, type: 'in', destinations: undefined }).outputs).toEqual([
      { address: 'pool', amount: 12n },
    ]);
  });
});

describe('Monero wallet refusals', () => {
  it('recognises "not enough money" and "not enough unlocked money" as a wallet that cannot fund the run', () => {
    expect(isInsufficientFunds(new RpcError('rpc', 'transfer', 'not enough money', -17))).toBe(true);
    expect(isInsufficientFunds(new RpcError('rpc', 'transfer', 'not enough unlocked money', -37))).toBe(true);
    const tooLarge = new RpcError(
      'rpc',
      'transfer',
      'Transaction would be too large.  try /transfer_split.',
      -18,
    );
    expect([isNodeRejection(tooLarge), isInsufficientFunds(tooLarge)]).toEqual([true, false]);
    // No answer is not a refusal: the transfer may have gone out.
    expect(isNodeRejection(new RpcError('timeout', 'transfer', 'no answer within 120000 ms'))).toBe(false);
  });

  it('refuses a run of more than 15 destinations before asking the wallet, so nothing is sent', async () => {
    const chain = MoneroAccountingChain.fromUrls('http://127.0.0.1:1', 'http://127.0.0.1:1', 1_000);
    const outputs = new Map(Array.from({ length: 16 }, (_, i) => [`address-${i}`, 1n] as const));
    const refusal = await chain.sendMany(outputs, 'manjam-payout:XMR:x').catch((error: unknown) => error);
    expect(isNodeRejection(refusal)).toBe(true);
    expect((refusal as Error).message).toMatch(/at most 15/);
    expect(chain.maxOutputsPerSend).toBe(MONERO_MAX_DESTINATIONS);
  });
});

describe('payout runs cut to the outputs of one transaction', () => {
  const payout = (payeeId: number, address: string, amount: bigint): PlannedPayout => ({
    payeeId,
    userId: payeeId,
    address,
    amount,
  });

  it('takes the 15 largest addresses of 17 and leaves the two smallest for the next run', () => {
    const payouts = Array.from({ length: 17 }, (_, i) => payout(i + 1, `addr-${i + 1}`, BigInt(1_000 + i)));
    const { payouts: taken, deferred } = limitToOutputs(payouts, {
      maxOutputsPerSend: MONERO_MAX_DESTINATIONS,
    });
    expect(taken.map((p) => p.payeeId)).toEqual(Array.from({ length: 15 }, (_, i) => i + 3));
    expect(deferred.map((p) => p.payeeId)).toEqual([1, 2]);
  });

  it('counts payees sharing an address as one output, kept together, and breaks ties by order', () => {
    const payouts = [
      payout(1, 'shared', 4n),
      payout(2, 'b', 5n),
      payout(3, 'c', 5n),
      payout(4, 'shared', 4n),
      payout(5, 'd', 1n),
    ];
    const { payouts: taken, deferred } = limitToOutputs(payouts, { maxOutputsPerSend: 2 });
    expect(taken.map((p) => p.payeeId)).toEqual([1, 2, 4]);
    expect(deferred.map((p) => p.payeeId)).toEqual([3, 5]);
  });

  it('pays an integrated address in a run of its own when it is the largest, and makes it wait otherwise', () => {
    const chain = MoneroAccountingChain.fromUrls('http://127.0.0.1:1', 'http://127.0.0.1:1');
    expect([STANDARD, INTEGRATED_SMALL].map((a) => chain.paysAlone(a))).toEqual([false, true]);
    const payouts = [
      payout(1, INTEGRATED_SMALL, 2n),
      payout(2, STANDARD, 1n),
      payout(3, INTEGRATED_LARGE, 3n),
    ];
    const alone = limitToOutputs(payouts, chain);
    expect([alone.payouts.map((p) => p.payeeId), alone.deferred.map((p) => p.payeeId)]).toEqual([
      [3],
      [1, 2],
    ]);
    const rest = limitToOutputs([payouts[0] as PlannedPayout, payout(2, STANDARD, 5n)], chain);
    expect([rest.payouts.map((p) => p.payeeId), rest.deferred.map((p) => p.payeeId)]).toEqual([[2], [1]]);
  });

  it('leaves a run alone when the wallet has no limit or the run fits', () => {
    const payouts = [payout(1, 'a', 1n), payout(2, 'b', 2n)];
    expect(limitToOutputs(payouts, {})).toEqual({ payouts, deferred: [] });
    expect(limitToOutputs(payouts, { maxOutputsPerSend: 2 })).toEqual({ payouts, deferred: [] });
  });
});

describe("transfers of the wallet it does not know in monerod's pool", () => {
  const hex = (n: number): string => n.toString(16).padStart(64, '0');
  let server: Server | undefined;
  afterEach(() => server?.close());
  /**
   * One local server answering as monero-wallet-rpc (/json_rpc) and monerod (/get_transaction_pool),
   * in the shapes monero-wallet-rpc and monerod 0.18 answer (recorded on the dev chain).
   */
  const serve = async (answers: {
    keyImages: string[];
    pending: string[];
    pool: Record<string, unknown>;
  }): Promise<MoneroRpcClient> => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { id, method } = JSON.parse(body || '{}') as { id?: number; method?: string };
        const result =
          method === 'incoming_transfers'
            ? { transfers: answers.keyImages.map((key_image) => ({ key_image, spent: false })) }
            : method === 'get_transfers'
              ? answers.pending.length > 0
                ? { pending: answers.pending.map((txid) => ({ txid, type: 'pending' })) }
                : {}
              : {};
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(req.url === '/json_rpc' ? { id, jsonrpc: '2.0', result } : answers.pool));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return new MoneroRpcClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 5_000);
  };
  const chainOver = (client: MoneroRpcClient) => new MoneroAccountingChain(client, client);

  it("names a pool transaction spending the wallet's key images that the wallet does not list as sent, and no other", async () => {
    const client = await serve({
      keyImages: [hex(1), hex(2), hex(3)],
      pending: [hex(0xb)],
      pool: {
        status: 'OK',
        transactions: [{ id_hash: hex(0xa) }, { id_hash: hex(0xb) }, { id_hash: hex(0xc) }],
        spent_key_images: [
          { id_hash: hex(1), txs_hashes: [hex(0xa)] }, // lost by the wallet
          { id_hash: hex(2), txs_hashes: [hex(0xb)] }, // a transfer it knows it sent
          { id_hash: hex(9), txs_hashes: [hex(0xc)] }, // someone else's
        ],
      },
    });
    expect(await chainOver(client).untoldPoolSpends()).toEqual([hex(0xa)]);
  });

  it('answers none for an empty pool (monerod leaves its lists out) and refuses when monerod is busy', async () => {
    const empty = await serve({ keyImages: [hex(1)], pending: [], pool: { status: 'OK' } });
    expect(await chainOver(empty).untoldPoolSpends()).toEqual([]);
    server?.close();
    const busy = await serve({ keyImages: [hex(1)], pending: [], pool: { status: 'BUSY' } });
    const refusal = await chainOver(busy)
      .untoldPoolSpends()
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RpcError);
    expect([(refusal as RpcError).kind, (refusal as Error).message]).toEqual([
      'rpc',
      'get_transaction_pool: monerod answered status "BUSY"',
    ]);
  });
});
