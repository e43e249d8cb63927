// Chains start and fail apart. Every family's chain side starts at once (main.ts waits for them
// all); a family whose start fails (a node or wallet that does not answer, a dev chain that does
// not come up) does not stop the pool: it becomes a LateChain, which the pool runs like any other
// chain while its start is retried with a growing pause. Until it is up, its coins are reported
// down in /api/health ("not started: <why>; retrying"), they have no work, their Stratum ports
// stay closed (a miner's connection is refused, so its backup pool takes over) and accounting's
// calls to its wallet fail as they do when a running node stops answering. Once a retry succeeds,
// its ports open and start serving jobs, and accounting reaches the wallet on its next cycle.
import { coinsOf, type Family } from '@manjam/protocol';
import type { AccountingChain, WalletTransaction } from '../accounting/chain.js';
import { ConfigError, type CoinId, type Config } from '../config/core.js';
import type { Logger } from '../logger.js';
import type { StratumKit } from '../stratum/kit.js';
import type {
  ChainHealth,
  ChainMode,
  CoinFamily,
  FamilyAccounting,
  FamilyChain,
  FamilyFigure,
  FamilyPorts,
} from './family.js';

/** Pauses between start attempts of a late family: 5 s, doubling, at most a minute. */
export const LATE_START_RETRY_MS = { first: 5_000, max: 60_000 } as const;

/**
 * Starts every family's chain side side by side. A family whose start fails is retried in the
 * background as a LateChain; the pool starts with the others. A ConfigError (a wrong pool
 * address, say) is not retried: it stops the start as a configuration mistake does at load.
 */
export async function startChains(
  families: readonly CoinFamily[],
  config: Config,
  logger: Logger,
  mode: ChainMode,
  retry: { first: number; max: number } = LATE_START_RETRY_MS,
): Promise<FamilyChain[]> {
  const results = await Promise.allSettled(families.map((family) => family.startChain(config, logger, mode)));
  // A configuration mistake is not retried: the process stops with its one line, as at load.
  const mistake = results.find(
    (result): result is PromiseRejectedResult =>
      result.status === 'rejected' && result.reason instanceof ConfigError,
  );
  if (mistake) {
    for (const result of results) if (result.status === 'fulfilled') await result.value?.stop();
    throw mistake.reason;
  }
  const chains: FamilyChain[] = [];
  results.forEach((result, index) => {
    const family = families[index]!;
    if (result.status === 'fulfilled') {
      if (result.value) chains.push(result.value);
      return;
    }
    const late = new LateChain(family, config, logger, mode, result.reason, retry);
    if (late.coins.length > 0) chains.push(late);
  });
  return chains;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A family's chain side whose start failed: retried until it is up, then the chain itself. */
export class LateChain implements FamilyChain {
  readonly family: Family;
  readonly coins: readonly CoinId[];
  private chain: FamilyChain | undefined;
  private lastError: string;
  private pauseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;
  private stopped = false;
  private readonly ports: LatePorts[] = [];
  private readonly logger: Logger;

  constructor(
    private readonly source: CoinFamily,
    private readonly config: Config,
    logger: Logger,
    private readonly mode: ChainMode,
    firstError: unknown,
    private readonly retry: { first: number; max: number },
  ) {
    this.family = source.id;
    this.coins = coinsOf(source.id).filter((coin) => config.chains[coin].enabled);
    this.logger = logger.child({ family: source.id });
    this.lastError = reasonOf(firstError);
    this.pauseMs = retry.first;
    this.logger.error(
      { err: firstError, coins: this.coins, retryInMs: this.pauseMs },
      `${this.coins.join(', ')}: chain did not start; the other coins run, retrying`,
    );
    this.schedule();
  }

  /** The started chain, once a retry succeeded. */
  get started(): FamilyChain | undefined {
    return this.chain;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.attempt = this.tryStart();
    }, this.pauseMs);
    this.timer.unref();
  }

  private async tryStart(): Promise<void> {
    let chain: FamilyChain | undefined;
    try {
      chain = await this.source.startChain(this.config, this.logger, this.mode);
    } catch (error) {
      this.lastError = reasonOf(error);
      this.pauseMs = Math.min(this.pauseMs * 2, this.retry.max);
      this.logger.warn(
        { err: error, retryInMs: this.pauseMs },
        `${this.coins.join(', ')}: chain still not started`,
      );
      this.schedule();
      return;
    }
    if (!chain) return;
    if (this.stopped) {
      await chain.stop();
      return;
    }
    this.chain = chain;
    this.logger.info(
      { coins: this.coins },
      `${this.coins.join(', ')}: chain started late; opening its ports`,
    );
    await Promise.all(this.ports.map((ports) => ports.attach(chain)));
  }

  async health(): Promise<ChainHealth[]> {
    if (this.chain) return this.chain.health();
    return this.coins.map((coin) => ({
      coin,
      ok: false,
      height: null,
      error: `not started: ${this.lastError}; retrying`,
    }));
  }

  up(): { coin: CoinId; up: boolean }[] {
    return this.chain ? this.chain.up() : this.coins.map((coin) => ({ coin, up: false }));
  }

  accounting(logger: Logger): FamilyAccounting {
    let wallets: Map<CoinId, AccountingChain> | undefined;
    const walletOf = (coin: CoinId): AccountingChain => {
      if (!this.chain) throw new Error(`${coin}: chain not started yet (${this.lastError})`);
      wallets ??= new Map(this.chain.accounting(logger).chains);
      const wallet = wallets.get(coin);
      if (!wallet) throw new Error(`${coin}: no wallet configured`);
      return wallet;
    };
    return { chains: this.coins.map((coin) => [coin, new LateWallet(() => walletOf(coin))]), creditOnly: [] };
  }

  async leaderWork(config: Config, logger: Logger): Promise<{ stop(): Promise<void> } | undefined> {
    // Work for regions without nodes starts with the chain; a late chain's regions wait for a restart.
    return this.chain?.leaderWork?.(config, logger);
  }

  async openPorts(kit: StratumKit): Promise<FamilyPorts> {
    const ports = new LatePorts(kit, this.logger);
    this.ports.push(ports);
    if (this.chain) await ports.attach(this.chain);
    return ports;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.attempt;
    await this.chain?.stop();
  }
}

/** A late family's Stratum ports: none until its chain is up, then the chain's own. */
class LatePorts implements FamilyPorts {
  private inner: FamilyPorts | undefined;
  private opening: Promise<void> | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly kit: StratumKit,
    private readonly logger: Logger,
  ) {}

  attach(chain: FamilyChain): Promise<void> {
    this.opening ??= (async () => {
      if (this.closed) return;
      try {
        const inner = await chain.openPorts(this.kit);
        if (this.closed) {
          await inner.close();
          await inner.release();
          return;
        }
        this.inner = inner;
        if (this.started) inner.start();
      } catch (error) {
        this.logger.error({ err: error }, 'ports of a late chain did not open');
      }
    })();
    return this.opening;
  }

  ports() {
    return this.inner?.ports() ?? [];
  }

  stats(): ReturnType<FamilyPorts['stats']> {
    return this.inner?.stats() ?? { connections: 0, accepted: 0, rejected: {} };
  }

  figures(): FamilyFigure[] {
    return this.inner?.figures?.() ?? [];
  }

  start(): void {
    this.started = true;
    this.inner?.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.opening;
    await this.inner?.close();
  }

  async release(): Promise<void> {
    await this.inner?.release();
  }
}

/** A late coin's wallet for accounting: each call reaches the started chain's wallet or fails. */
class LateWallet implements AccountingChain {
  constructor(private readonly wallet: () => AccountingChain) {}

  get maxOutputsPerSend(): number | undefined {
    try {
      return this.wallet().maxOutputsPerSend;
    } catch {
      return undefined;
    }
  }

  paysAlone(address: string): boolean {
    try {
      return this.wallet().paysAlone?.(address) ?? false;
    } catch {
      return false;
    }
  }

  async getBlockCount(): Promise<number> {
    return this.wallet().getBlockCount();
  }

  async holdsBlock(height: number, hash: string): Promise<boolean> {
    return this.wallet().holdsBlock(height, hash);
  }

  async getWalletBalance(): Promise<bigint> {
    return this.wallet().getWalletBalance();
  }

  async sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string> {
    return this.wallet().sendMany(outputs, comment);
  }

  async getWalletTransaction(txid: string): Promise<WalletTransaction | undefined> {
    return this.wallet().getWalletTransaction(txid);
  }

  async findWalletTransactions(sinceUnixSeconds: number): Promise<WalletTransaction[]> {
    return this.wallet().findWalletTransactions(sinceUnixSeconds);
  }

  async untoldPoolSpends(): Promise<string[]> {
    return (await this.wallet().untoldPoolSpends?.()) ?? [];
  }
}
