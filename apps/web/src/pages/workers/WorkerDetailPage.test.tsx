import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import type { HashrateBarChartProps } from '../../features/dashboard/HashrateBarChart';
import WorkerDetailPage from './WorkerDetailPage';

// jsdom has no canvas: the chart is replaced by its props (the series, legend and axis names it gets).
vi.mock('../../features/dashboard/HashrateBarChart', () => ({
  default: ({ summary, timeAxis, legend, values }: HashrateBarChartProps) => (
    <figure role="img" aria-label={summary}>
      <figcaption>{legend}</figcaption>
      <span>{timeAxis}</span>
      <span>{values.length} bars</span>
    </figure>
  ),
}));

const worker = {
  id: 3,
  name: 'rig7',
  fullName: 'amal.rig7',
  coin: 'BTC',
  status: 'online',
  hashrate: 110e12,
  hashrate1h: 108e12,
  hashrate24h: 105e12,
  rejectRate: 1.25,
  sparkline: [],
  change: 'new',
  shares: 990,
  rejects: 10,
  lastSeen: '2026-11-25T11:59:00Z',
  type: 'asic',
  algorithm: 'sha256',
};

function page() {
  return renderScreen(
    <Routes>
      <Route path="/workers/:id" element={<WorkerDetailPage />} />
    </Routes>,
    '/workers/3',
  );
}

describe('Worker detail page', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows the worker with its 10 min / 1 h / 24 h hashrate, reject rate and a chart whose time axis names its zone', async () => {
    signInForTest();
    const points = Array.from({ length: 144 }, (_, i) => ({
      time: new Date(Date.UTC(2026, 10, 24, 12) + i * 600_000).toISOString(),
      value: i > 140 ? 110e12 : 0,
    }));
    mockFetch((url) => (url.pathname === '/api/workers/3' ? json({ worker, points }) : undefined));
    page();
    expect(await screen.findByRole('heading', { level: 1, name: 'Worker rig7' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Hashrate, 10 min' })).toHaveTextContent('110.00 TH/s');
    expect(screen.getByRole('region', { name: 'Hashrate, 1 h average' })).toHaveTextContent('108.00 TH/s');
    expect(screen.getByRole('region', { name: 'Hashrate, 24 h average' })).toHaveTextContent('105.00 TH/s');
    expect(screen.getByText('amal.rig7')).toBeInTheDocument();
    expect(screen.getByText('1.3%')).toBeInTheDocument();
    expect(screen.getByText('New: no previous period yet')).toBeInTheDocument();
    const chart = await screen.findByRole('img', { name: /over the last 24 hours \(times in .+\)/ });
    expect(chart.getAttribute('aria-label')).toMatch(/peak 110 TH\/s/);
    expect(chart).toHaveTextContent('SHA-256 hashrate (TH/s)');
    expect(chart).toHaveTextContent(/Time \(.+\)/);
    expect(chart).toHaveTextContent('144 bars');
    expect(screen.getByRole('link', { name: 'Back to workers' })).toHaveAttribute('href', '/workers');
  });

  it('says so when the worker does not exist', async () => {
    signInForTest();
    mockFetch(() => json({ error: { code: 'worker-not-found', message: 'Worker not found' } }, 404));
    page();
    expect(await screen.findByText('This worker does not exist or was deleted.')).toBeInTheDocument();
  });
});
