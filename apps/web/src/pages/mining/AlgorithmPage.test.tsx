import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../test/render';
import { AppRoutes } from '../../app/routes';

const stat = (port: number, scheme: string) => ({
  algorithm: 'sha256',
  coin: 'BTC',
  live: true,
  port,
  tls: false,
  hashrate: 0,
  miners: 0,
  workers: 0,
  networkHeight: 900,
  networkDifficulty: 1,
  fee: 1,
  payoutInterval: 24,
  scheme,
  blocksFound: 0,
});

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  const stats = {
    host: 'pool.test',
    algorithms: [stat(3333, 'pps-plus'), stat(3334, 'pplns'), stat(3335, 'solo')],
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

it('lists each live port of the algorithm with its own payout scheme', async () => {
  renderWithApp(<AppRoutes />, { route: '/mining/sha256' });
  const term = await screen.findByText('Payout scheme', { selector: 'dt' }, { timeout: 8000 });
  const items = within(term.parentElement as HTMLElement)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
  expect(items).toEqual(['3333 · PPS+', '3334 · PPLNS', '3335 · SOLO']);
});
