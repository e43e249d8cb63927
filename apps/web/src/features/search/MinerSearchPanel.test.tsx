import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen } from '../../../test/dashboard';
import { MinerSearchPanel } from './MinerSearchPanel';

const ADDRESS = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

function search(text: string): void {
  fireEvent.change(screen.getByLabelText('Wallet address (or address.worker)'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}

describe('Miner Search panel', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks for a wallet address when the input is blank, without calling the API', () => {
    const fetchMock = mockFetch(() => undefined);
    renderScreen(<MinerSearchPanel />);
    search('   ');
    expect(screen.getByText('Please enter a wallet address or worker ID')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the search failed when the API errors', async () => {
    mockFetch(() => json({ error: { code: 'internal', message: 'boom' } }, 500));
    renderScreen(<MinerSearchPanel />);
    search(ADDRESS);
    expect(await screen.findByText('Error fetching miner data. Please try again.')).toBeInTheDocument();
  });

  it('says nothing was found instead of showing sample miners', async () => {
    mockFetch((url) => (url.pathname === '/api/search' ? json({ results: [] }) : undefined));
    renderScreen(<MinerSearchPanel />);
    search('nobody');
    expect(await screen.findByText('No miners found for “nobody”.')).toBeInTheDocument();
  });

  it('lists each miner with status, shares and earnings in the coin of its algorithm', async () => {
    const fetchMock = mockFetch((url) =>
      url.pathname === '/api/search'
        ? json({
            results: [
              {
                address: ADDRESS,
                miners: [
                  {
                    id: 'w1',
                    name: 'rig7',
                    algorithm: 'sha256',
                    coin: 'BTC',
                    status: 'active',
                    hashrate: 110e12,
                    shares: { accepted: 1200, rejected: 3, stale: 1 },
                    earnings: { daily: '12345', weekly: '86415', monthly: '370350' },
                    lastSeen: null,
                    source: 'pool',
                  },
                ],
              },
            ],
          })
        : undefined,
    );
    renderScreen(<MinerSearchPanel />);
    search(` ${ADDRESS} `);
    expect(await screen.findByText('rig7')).toBeInTheDocument();
    expect(screen.getByText(ADDRESS)).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('110.00 TH/s')).toBeInTheDocument();
    expect(screen.getByText('0.00012345 BTC')).toBeInTheDocument();
    expect(screen.getByText('(One miner)')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`/api/search?q=${ADDRESS}`);
  });
});
