import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  PAGE_TEST_TIMEOUT,
  json,
  mockFetch,
  renderScreen,
  requestedUrls,
  signInForTest,
} from '../../features/dashboard/test-utils';
import WorkersPage from './WorkersPage';

const rig = {
  id: 3,
  name: 'rig7',
  fullName: 'amal.rig7',
  coin: 'BTC',
  status: 'online',
  hashrate: 110e12,
  change: '+2.0%',
  shares: 990,
  rejects: 10,
  lastSeen: null,
  type: 'asic',
  algorithm: 'sha256',
};

describe('Worker Dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists workers with totals and deletes one after the inline confirmation', async () => {
    signInForTest();
    let deleted = false;
    const fetchMock = mockFetch((url, init) => {
      if (url.pathname === '/api/workers/3' && init?.method === 'DELETE') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      if (url.pathname === '/api/workers')
        return json({
          workers: deleted ? [] : [rig],
          totals: { hashrate: deleted ? 0 : 110e12, active: deleted ? 0 : 1 },
          total: 1,
          page: 1,
          pageSize: 500,
        });
      return undefined;
    });
    renderScreen(<WorkersPage />);
    expect(await screen.findByText('rig7')).toBeInTheDocument();
    expect(screen.getByText('110.0 TH/s')).toBeInTheDocument();
    expect(screen.getByText('One active worker')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete rig7' }));
    expect(screen.getByText('Are you sure?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
    expect(await screen.findByText('Worker deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByText('No Workers Found')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('searches by name on the server and shows the details of a worker', async () => {
    signInForTest();
    const fetchMock = mockFetch((url) =>
      url.pathname === '/api/workers'
        ? json({ workers: [rig], totals: { hashrate: 110e12, active: 1 }, total: 1, page: 1, pageSize: 500 })
        : undefined,
    );
    renderScreen(<WorkersPage />);
    fireEvent.change(screen.getByLabelText('Search workers by name'), { target: { value: 'rig' } });
    await waitFor(() => expect(requestedUrls(fetchMock).includes('/api/workers?search=rig')).toBe(true));
    fireEvent.click(await screen.findByRole('button', { name: 'View details of rig7' }));
    expect(screen.getByText('amal.rig7')).toBeInTheDocument();
    expect(screen.getByText('990')).toBeInTheDocument();
    expect(screen.getByText('1%')).toBeInTheDocument();
  });
  it('shows a worker that is connected without a share yet as such, not "Never"', async () => {
    signInForTest();
    const waiting = {
      ...rig,
      id: 4,
      name: 'cpu1',
      fullName: 'amal.cpu1',
      status: 'connected',
      hashrate: 0,
      change: '0.0%',
      shares: 0,
      rejects: 0,
      lastSeen: null,
      type: 'cpu',
    };
    mockFetch((url) =>
      url.pathname === '/api/workers'
        ? json({ workers: [waiting], totals: { hashrate: 0, active: 0 }, total: 1, page: 1, pageSize: 500 })
        : undefined,
    );
    renderScreen(<WorkersPage />);
    expect(await screen.findByText('cpu1')).toBeInTheDocument();
    expect(screen.getByText('Connected, waiting for the first share')).toBeInTheDocument();
    expect(screen.getByText('Connected, no shares yet')).toBeInTheDocument();
    expect(screen.queryByText('Never')).not.toBeInTheDocument();
  });
});
