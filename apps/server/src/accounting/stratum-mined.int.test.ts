import { setTimeout as delay } from 'node:timers/promises';
import { algorithmOf, blockHashHex, blockSubsidy, coinParams } from '@manjam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNode } from '../coins/bitcoin/node/node.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { BalancesRepository } from '../db/repositories/balances.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../test/support/devchain/snapshot.js';
import { StratumTestClient } from '../../test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../test/support/coins/bitcoin/stratum/harness.js';
import { startAccounting, type AccountingService } from './index.js';
import { newAddress, receivedBy } from '../../test/support/accounting/regtest.js';
import { RpcAccountingChain } from '../coins/bitcoin/wallet.js';

/** A double as an exact fraction num / 2^k (an independent check of the documented rounding rule). */
function exact(x: number): { num: bigint; den: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = bits & ((1n << 52n) - 1n);
  const significand = exponent === 0 ? mantissa : mantissa | (1n << 52n);
  const shift = BigInt(Math.max(exponent, 1) - 1075);
  return shift >= 0n ? { num: significand << shift, den: 1n } : { num: significand, den: 1n << -shift };
}

/** Rule step 2: floor(S * min(d, D) * 2^32 / D) per share, summed, fee floored, credit floored. */
function expectedPps(
  shares: { difficulty: number; network_difficulty: number; height: number }[],
  coin: BitcoinFamilyCoin,
): bigint {
  let gross = 0n;
  for (const s of shares) {
    const S = blockSubsidy(coinParams(coin, 'regtest'), s.height);
    const d = exact(Math.min(s.difficulty, s.network_difficulty));
    const D = exact(s.network_difficulty);
    gross += (S * d.num * D.den * 2n ** 32n) / (d.den * D.num);
  }
  return (gross - (gross * 100n) / 10_000n) / 2n ** 32n;
}

const LOW_DIFFICULTY: Record<BitcoinFamilyCoin, number> = { BTC: 3e-10, LTC: 2e-5 };
const net = (value: bigint): bigint => value - (value * 100n) / 10_000n;

describe.each(['BTC', 'LTC'] as const)(
  'accounting of shares and blocks mined through Stratum on %s regtest',
  (coin: BitcoinFamilyCoin) => {
    let dev: DevChain;
    let database: TestDatabase;
    let pool: PoolOnChain;
    let node: ChainNode;
    let accounting: AccountingService;
    const clients: StratumTestClient[] = [];

    beforeAll(async () => {
      dev =
        coin === 'BTC'
          ? await startBtcTestChain({ logger: testLogger })
          : await startLtcTestChain({ logger: testLogger, mweb: 'off' });
      database = await openTestDatabase('postgres');
      const start = LOW_DIFFICULTY[coin];
      pool = await startPoolOnChain({
        coin,
        chain: dev,
        database,
        ports: [
          { start, scheme: 'pps-plus' },
          { start, scheme: 'pplns' },
          { start, scheme: 'solo' },
        ],
      });
      node = new ChainNode({ coin, rpc: dev.rpc, walletRpc: dev.walletRpc });
      accounting = await startAccounting({
        config: pool.config,
        db: database.db,
        logger: testLogger,
        events: pool.events,
        chains: new Map([[coin, RpcAccountingChain.fromNode(node)]]),
        loop: false,
      });
    });

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await accounting?.stop();
      await pool?.close();
      node?.close();
      await database?.drop();
      await dev?.stop();
    });

    /** Connects to a port, submits `plain` shares that are not blocks, then one that is; resolves with its hash. */
    const mine = async (port: number, login: string, plain: number): Promise<string> => {
      const client = await StratumTestClient.connect(port);
      clients.push(client);
      expect((await client.subscribe()).error).toBeNull();
      expect((await client.authorize(login)).result).toBe(true);
      const tip = await node.getBestBlockHash();
      const job = await client.waitForJob((j) => j.template.prevHashRpc === tip);
      for (let i = 0; i < plain; i++) {
        const share = client.findShare(job, algorithmOf(coin), {
          accept: (b, j) => b.hashValue > j.template.networkTarget,
        });
        expect((await client.submit(login, share)).result).toBe(true);
      }
      const block = client.findShare(job, algorithmOf(coin), {
        accept: (b, j) => b.hashValue <= j.template.networkTarget,
      });
      expect((await client.submit(login, block)).result).toBe(true);
      const hash = blockHashHex(block.built.header);
      for (let i = 0; i < 200 && (await node.getBestBlockHash()) !== hash; i++) await delay(25);
      return hash;
    };

    /** Polls until the share writer has stored `shares` shares and `blocks` blocks. */
    const stored = async (shares: number, blocks: number): Promise<void> => {
      for (let i = 0; i < 400; i++) {
        const row = (
          await database.db.query<{ s: bigint; b: bigint }>(
            'SELECT (SELECT count(*) FROM shares) AS s, (SELECT count(*) FROM blocks) AS b',
          )
        ).rows[0];
        if (Number(row?.s) >= shares && Number(row?.b) >= blocks) return;
        await delay(25);
      }
      throw new Error('shares or blocks never reached the database');
    };

    it('credits real Stratum shares and blocks exactly by the formulas and pays each miner address on chain', async () => {
      const [portPps, portPplns, portSolo] = pool.ports as [number, number, number];
      const [a, b, c] = [await newAddress(node), await newAddress(node), await newAddress(node)];
      await mine(portPps, `${a}.rig`, 2);
      await mine(portPplns, `${b}.rig`, 2);
      await mine(portSolo, `${c}.rig`, 0);
      await stored(7, 3);
      await accounting.runOnce();
      await dev.mine(100);
      await accounting.runOnce();

      const payee = async (address: string) =>
        (
          await database.db.query<{ id: number }>(
            "SELECT id FROM payees WHERE kind = 'wallet' AND address = $1",
            [address],
          )
        ).rows[0]?.id ?? -1;
      const sharesOf = async (address: string) =>
        (
          await database.db.query<{ difficulty: number; network_difficulty: number; height: number }>(
            'SELECT difficulty, network_difficulty, height FROM shares WHERE payee_id = $1',
            [await payee(address)],
          )
        ).rows;
      const blockOf = async (scheme: string) =>
        (
          await database.db.query<{ reward: bigint; fees: bigint; status: string }>(
            'SELECT reward, fees, status FROM blocks WHERE scheme = $1',
            [scheme],
          )
        ).rows[0];
      const balances = new BalancesRepository(database.db);

      const ppsBlock = await blockOf('pps-plus');
      expect(ppsBlock?.status).toBe('confirmed');
      expect(ppsBlock?.fees).toBe(0n);
      expect(await balances.get(await payee(a), coin)).toBe(expectedPps(await sharesOf(a), coin));
      expect(await balances.get(await payee(b), coin)).toBe(net((await blockOf('pplns'))?.reward ?? 0n));
      expect(await balances.get(await payee(c), coin)).toBe(net((await blockOf('solo'))?.reward ?? 0n));

      const owed = new Map<string, bigint>();
      for (const address of [a, b, c]) owed.set(address, await balances.get(await payee(address), coin));
      const [run] = await accounting.runPayouts(coin);
      expect(run?.status).toBe('sent');
      const figures = [...owed.values()]
        .map((units, i) => `${['PPS+', 'PPLNS', 'SOLO'][i]} ${units}`)
        .join(', ');
      process.stdout.write(
        `[accounting ${coin}] credited and paid in one sendmany (base units): ${figures}\n`,
      );
      await dev.mine(1);
      for (const address of [a, b, c]) expect(await receivedBy(node, address)).toBe(owed.get(address));
      expect(await accounting.checkBalances()).toEqual([]);
      expect(accounting.metrics().cycle_errors_total).toBe(0);
    });
  },
);
