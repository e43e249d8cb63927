// A wallet outside the pool: its own monero-wallet-rpc process on the dev chain's monerod, with
// its own wallet file, so a test pays an address the pool does not hold and reads what arrived
// without touching the pool wallet the accounting loop is using.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { RpcError } from '../../../../../src/rpc/json-rpc.js';
import { freePort } from '../../../../../src/devchain/child.js';
import { MONERO_WALLET_RPC_PATH } from '../../../../../src/coins/monero/devchain.js';
import { MoneroRpcClient } from '../../../../../src/coins/monero/rpc.js';

export interface OutsideWallet {
  address: string;
  /** Everything the wallet holds (locked or not), in atomic units, after a refresh. */
  balance(): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startOutsideWallet(daemonUrl: string): Promise<OutsideWallet> {
  const dir = await mkdtemp(path.join(tmpdir(), 'manjam-xmr-outside-'));
  const port = await freePort();
  const proc: ChildProcess = spawn(
    process.env.MANJAM_MONERO_WALLET_RPC ?? MONERO_WALLET_RPC_PATH,
    [
      `--daemon-address=${new URL(daemonUrl).host}`,
      '--trusted-daemon',
      `--wallet-dir=${dir}`,
      '--disable-rpc-login',
      '--rpc-bind-ip=127.0.0.1',
      `--rpc-bind-port=${port}`,
      '--non-interactive',
      `--shared-ringdb-dir=${path.join(dir, 'ringdb')}`,
      `--log-file=${path.join(dir, 'wallet-rpc.log')}`,
    ],
    { stdio: 'ignore' },
  );
  const wallet = new MoneroRpcClient(`http://127.0.0.1:${port}`, 120_000);
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await wallet.call('get_version', {}, { timeoutMs: 5_000 });
        break;
      } catch (error) {
        const starting = error instanceof RpcError && error.kind !== 'rpc';
        if (!starting || Date.now() > deadline || proc.exitCode !== null) throw error;
      }
      await delay(100);
    }
    await wallet.call('create_wallet', { filename: 'outside', password: '', language: 'English' });
    const { address } = await wallet.call<{ address: string }>('get_address', { account_index: 0 });
    return {
      address,
      async balance() {
        await wallet.call('refresh');
        const { balance } = await wallet.call<{ balance: bigint }>(
          'get_balance',
          { account_index: 0 },
          { bigints: ['balance', 'unlocked_balance'] },
        );
        return balance;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
