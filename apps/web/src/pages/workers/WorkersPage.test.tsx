import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  PAGE_TEST_TIMEOUT,
  json,
  mockFetch,
  renderScreen,
  requestedUrls,
  signInForTest,
} from '../../../test/dashboard';
import WorkersPage from './WorkersPage';

const rig = {
  id: 3,
  name: 'rig7',
  fullName: 'amal.rig7',
  coin: 'BTC',
  status: 'online',
  hashrate: 110e12,
  hashrate1h: 108e12,
  hashrate24h: 105e12,
  rejectRate: 1,
  sparkline: [0, 45, 91, 100],
  change: '+2.0%',
  shares: 990,
  rejects: 10,
  lastSeen: null,
  type: 'asic',
  algorithm: 'sha256',
};

const sha256 = {
  algorithm: 'sha256',
  coin: 'BTC',
  realtime: 110e12,
  hour: 108e12,
  day: 105e12,
  activeWorkers: 1,
  countedUpTo: '2026-11-25T11:59:00.000Z',
};

describe('Worker Dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows a connected worker without a first share as waiting, with no details, edit or delete', async () => {
    signInForTest();
    const waiting = {
      ...rig,
      id: null,
      name: 'fresh1',
      fullName: 'amal.fresh1',
      status: 'connected',
      hashrate: 0,
      hashrate1h: 0,
      hashrate24h: 0,
      rejectRate: 0,
      sparkline: [],
      change: '0.0%',
      shares: 0,
      rejects: 0,
    };
    mockFetch((url) =>
      url.pathname === '/api/workers'
        ? json({
            workers: [rig, waiting],
            totals: { hashrates: [sha256], active: 1 },
            total: 2,
            page: 1,
            pageSize: 500,
          })
        : undefined,
    );
    renderScreen(<WorkersPage />);
    const row = (await screen.findByText('fresh1')).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Connected, waiting for the first share');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(within(row).queryByRole('link')).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete rig7' })).toBeInTheDocument();
  });

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
          totals: { hashrates: deleted ? [] : [sha256], active: deleted ? 0 : 1 },
          total: 1,
          page: 1,
          pageSize: 500,
        });
      return undefined;
    });
    renderScreen(<WorkersPage />);
    expect(await screen.findByText('rig7')).toBeInTheDocument();
    // Totals per algorithm: 10 min, 1 h and 24 h, each labelled.
    expect(screen.getByRole('region', { name: 'SHA-256' })).toHaveTextContent(
      'Real-time (10 min)110.00 TH/s1 h average108.00 TH/s24 h average105.00 TH/s',
    );
    // The row: 10 min / 1 h / 24 h columns, reject rate and a sparkline.
    const row = screen.getByRole('row', { name: /rig7/ });
    expect(row).toHaveTextContent('110.00 TH/s108.00 TH/s105.00 TH/s1%');
    expect(
      within(row).getByRole('img', { name: 'Hashrate of rig7 over the last 24 hours' }),
    ).toBeInTheDocument();
    expect(screen.getByText('One active worker')).toBeInTheDocument();
    expect(screen.getByText('Total Hashrate')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete rig7' }));
    expect(screen.getByText('Are you sure?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
    expect(await screen.findByText('Worker deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByText('No Workers Found')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('searches by name on the server and links each worker to its detail page', async () => {
    signInForTest();
    const fetchMock = mockFetch((url) =>
      url.pathname === '/api/workers'
        ? json({
            workers: [rig],
            totals: { hashrates: [sha256], active: 1 },
            total: 1,
            page: 1,
            pageSize: 500,
          })
        : undefined,
    );
    renderScreen(<WorkersPage />);
    fireEvent.change(screen.getByLabelText('Search workers by name'), { target: { value: 'rig' } });
    await waitFor(() => expect(requestedUrls(fetchMock).includes('/api/workers?search=rig')).toBe(true));
    expect(await screen.findByRole('link', { name: 'View details of rig7' })).toHaveAttribute(
      'href',
      '/workers/3',
    );
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
        ? json({ workers: [waiting], totals: { hashrates: [], active: 0 }, total: 1, page: 1, pageSize: 500 })
        : undefined,
    );
    renderScreen(<WorkersPage />);
    expect(await screen.findByText('cpu1')).toBeInTheDocument();
    expect(screen.getByText('Connected, waiting for the first share')).toBeInTheDocument();
    expect(screen.getByText('Connected, no shares yet')).toBeInTheDocument();
    expect(screen.queryByText('Never')).not.toBeInTheDocument();
  });
});
