import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import { algorithmStats, REGTEST_BITCOIN_FAMILY, servePoolStats } from '../../../test/pool-stats';
import CalculatorPage from './CalculatorPage';

beforeEach(() => servePoolStats(REGTEST_BITCOIN_FAMILY));
afterEach(() => vi.unstubAllGlobals());

it('prints a tiny live difficulty in scientific notation and says when a coin is not live', async () => {
  renderWithApp(<CalculatorPage />);
  expect(await screen.findByText('Live from the pool: 4.66e-10')).toBeInTheDocument();
  expect(screen.queryByText(/is not live on Manjam yet/)).not.toBeInTheDocument();
  fireEvent.change(screen.getByRole('combobox', { name: 'Coin' }), { target: { value: 'DOGE' } });
  expect(
    screen.getByText(
      'Dogecoin (DOGE) is not live on Manjam yet: the estimate is for reference, the pool does not accept its shares.',
    ),
  ).toBeInTheDocument();
});

it("shows Litecoin's live difficulty as Litecoin Core reports it and estimates with it", async () => {
  renderWithApp(<CalculatorPage />);
  await screen.findByText('Live from the pool: 4.66e-10');
  fireEvent.change(screen.getByRole('combobox', { name: 'Coin' }), { target: { value: 'LTC' } });
  expect(screen.getByText('Live from the pool: 20M')).toBeInTheDocument();
  // 100 GH/s for a day at difficulty 20 M (20e6 * 2^32 hashes a block): 0.100583 blocks of 6.25 LTC, minus 1 %.
  expect(screen.getByText('0.622356 LTC')).toBeInTheDocument();
});

it('estimates Monero in kH/s with its live difficulty counted in hashes, and says so in the formula', async () => {
  servePoolStats([
    algorithmStats({
      algorithm: 'randomx',
      coin: 'XMR',
      port: 1111,
      networkHeight: 70,
      networkDifficulty: 360e9,
    }),
  ]);
  renderWithApp(<CalculatorPage />);
  fireEvent.change(await screen.findByRole('combobox', { name: 'Coin' }), { target: { value: 'XMR' } });
  expect(await screen.findByText('Live from the pool: 360B')).toBeInTheDocument();
  expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveValue('kH/s');
  expect(
    screen.getByText(/Monero's difficulty is the expected number of hashes per block/),
  ).toBeInTheDocument();
  // 100 kH/s for a day at difficulty 360 G (360e9 hashes a block): 0.024 blocks of 0.6 XMR, minus 1 %.
  expect(screen.getByText('0.014256 XMR')).toBeInTheDocument();
});

it("estimates Kaspa in GH/s with kaspad's difficulty (two hashes a unit), and says so in the formula", async () => {
  servePoolStats([
    algorithmStats({
      algorithm: 'kaspa',
      coin: 'KAS',
      port: 7777,
      networkHeight: 5000,
      networkDifficulty: 1,
    }),
  ]);
  renderWithApp(<CalculatorPage />);
  fireEvent.change(await screen.findByRole('combobox', { name: 'Coin' }), { target: { value: 'KAS' } });
  expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveValue('GH/s');
  expect(screen.queryByText(/is not live on Manjam yet/)).not.toBeInTheDocument();
  expect(screen.getByText(/Kaspa's difficulty, as kaspad and explorers report it/)).toBeInTheDocument();
  fireEvent.change(screen.getByRole('textbox', { name: 'Network difficulty' }), {
    target: { value: '1000000000000000' },
  });
  // 100 GH/s for a day at kaspad difficulty 1e15 (2e15 hashes a block): 4.32 blocks of 1.94 KAS, minus 1 %.
  expect(screen.getByText('8.29699 KAS')).toBeInTheDocument();
  fireEvent.change(screen.getByRole('combobox', { name: 'Unit' }), { target: { value: 'TH/s' } });
  expect(screen.getByText('8,296.99 KAS')).toBeInTheDocument();
});

/** /api/pool/stats as the regtest pool, /api/blocks with one orphaned and one confirmed regtest BTC block. */
function serveStatsAndBlocks(): void {
  const block = (height: number, status: 'confirmed' | 'orphaned', reward: string) => ({
    height,
    hash: 'ab'.repeat(32),
    coin: 'BTC',
    status,
    confirmations: status === 'confirmed' ? 101 : 0,
    reward,
    finder: 'bcrt1q…f4sn',
    foundAt: '2026-11-28T10:00:00Z',
    effort: null,
  });
  const items = [block(494, 'orphaned', '2500000000'), block(483, 'confirmed', '5000010000')];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.includes('/api/blocks')
          ? jsonResponse({ items, page: 1, pageSize: 20, total: items.length })
          : url.endsWith('/api/pool/stats')
            ? jsonResponse({ host: 'pool.test', algorithms: REGTEST_BITCOIN_FAMILY })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
}

it.each(['en', 'ar'] as const)(
  'pre-fills the block reward of the newest block /stats lists for the coin, not a constant (%s)',
  async (lang) => {
    serveStatsAndBlocks();
    renderWithApp(<CalculatorPage />, { lang });
    const reward = screen.getByRole('textbox', { name: lang === 'en' ? /Block reward/ : /مكافأة الكتلة/ });
    // 5,000,010,000 satoshis = 50.0001 BTC, the confirmed block's reward (the orphan is skipped).
    await vi.waitFor(() => expect(reward).toHaveValue('50.0001'));
    fireEvent.change(reward, { target: { value: '12.5' } });
    expect(reward).toHaveValue('12.5');
    // Litecoin: the pool found none, so the coin's subsidy is offered until it does.
    fireEvent.change(screen.getByRole('combobox', { name: lang === 'en' ? 'Coin' : 'العملة' }), {
      target: { value: 'LTC' },
    });
    expect(reward).toHaveValue('6.25');
  },
);
