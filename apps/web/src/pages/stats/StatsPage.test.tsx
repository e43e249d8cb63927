import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../test/render';
import StatsPage from './StatsPage';

beforeEach(() => {
  const stats = {
    host: 'pool.test',
    algorithms: [
      {
        algorithm: 'sha256',
        coin: 'BTC',
        network: 'regtest',
        live: true,
        port: 3333,
        tls: false,
        hashrate: 0,
        miners: 0,
        workers: 0,
        networkHeight: 120,
        networkDifficulty: 4.656542373906925e-10,
        fee: 1,
        payoutInterval: 24,
        scheme: 'pps-plus',
        blocksFound: 0,
      },
      {
        algorithm: 'scrypt',
        coin: 'LTC',
        network: 'regtest',
        live: true,
        port: 4444,
        tls: false,
        hashrate: 0,
        miners: 0,
        workers: 0,
        networkHeight: 300,
        // The pool's Scrypt unit: 65536 times the 20 M Litecoin Core and explorers show.
        networkDifficulty: 20e6 * 65_536,
        fee: 1,
        payoutInterval: 24,
        scheme: 'pps-plus',
        blocksFound: 0,
      },
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/pool/stats')
          ? jsonResponse(stats)
          : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

it("prints each coin's network difficulty as its node and explorers do: Litecoin Core's unit, tiny ones in scientific notation", async () => {
  renderWithApp(<StatsPage />);
  const ltc = (await screen.findByText('300')).closest('tr');
  if (!ltc) throw new Error('no Litecoin row');
  expect(within(ltc).getByText('20M')).toBeInTheDocument();
  const btc = screen.getByText('120').closest('tr');
  if (!btc) throw new Error('no Bitcoin row');
  expect(within(btc).getByText('4.66e-10')).toBeInTheDocument();
});
