import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { REGTEST_BITCOIN_FAMILY, servePoolStats } from '../../../test/pool-stats';
import StatsPage from './StatsPage';

beforeEach(() => servePoolStats(REGTEST_BITCOIN_FAMILY));
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
