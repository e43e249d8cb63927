import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { MinerSearchPanel } from './MinerSearchPanel';

function search(text: string): void {
  fireEvent.change(screen.getByLabelText('Wallet address (or address.worker)'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}

describe('a search that finds nothing', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('tells a signed-out visitor what a search finds and how to find workers by name', async () => {
    mockFetch((url) => (url.pathname === '/api/search' ? json({ results: [] }) : undefined));
    renderScreen(<MinerSearchPanel />);
    search('miner1.rig1');
    expect(await screen.findByText('No miners found for “miner1.rig1”.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Signed out, search finds miners by the wallet address they mine to (or address.worker). Sign in to find your own workers by name (username.worker).',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('says only that nothing was found to a signed-in miner, whose own workers are searched by name', async () => {
    signInForTest('miner1');
    mockFetch((url) => (url.pathname === '/api/search' ? json({ results: [] }) : undefined));
    renderScreen(<MinerSearchPanel />);
    search('miner1.rig9');
    expect(await screen.findByText('No miners found for “miner1.rig9”.')).toBeInTheDocument();
    expect(screen.queryByText(/^Signed out, search finds/)).not.toBeInTheDocument();
    expect(screen.getByText('Signed in, you can also find your own workers by name.')).toBeInTheDocument();
  });
});
