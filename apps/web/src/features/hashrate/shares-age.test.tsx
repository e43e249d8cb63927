// The hashrate figures say how old they are (issue 27), in English and Arabic, in the miner's zone.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { setTimeZone } from '../../lib/format';
import { STORAGE_KEYS } from '../../lib/storage';
import type { AlgorithmHashrate } from '../api-types';
import { AlgorithmHashrates } from './AlgorithmHashrates';
import { WorkerSharesAge } from './SharesAge';

async function inLanguage(lang: 'en' | 'ar'): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  await initI18n(lang).changeLanguage(lang);
}

/** As the screens render it (the figures ask the settings query whether to hide hashrates). */
function renderWithQueries(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

/** Today at hh:mm in the browser's zone, as the API sends it (ISO, UTC). */
const todayAt = (hours: number, minutes: number): string => {
  const at = new Date();
  at.setHours(hours, minutes, 40, 0);
  return at.toISOString();
};

const sha256 = (over: Partial<AlgorithmHashrate> = {}): AlgorithmHashrate => ({
  algorithm: 'sha256',
  coin: 'BTC',
  realtime: 110e12,
  hour: 108e12,
  day: 105e12,
  activeWorkers: 2,
  countedUpTo: todayAt(14, 5),
  ...over,
});

afterEach(async () => {
  setTimeZone(null);
  await inLanguage('en');
});

describe('the age of the hashrate figures', () => {
  it('says "Shares counted up to 14:05" under each algorithm, as a machine-readable time', async () => {
    await inLanguage('en');
    const at = todayAt(14, 5);
    renderWithQueries(<AlgorithmHashrates hashrates={[sha256({ countedUpTo: at })]} />);
    const algo = screen.getByRole('region', { name: 'SHA-256' });
    const line = within(algo).getByText('Shares counted up to 14:05');
    expect(line.tagName).toBe('TIME');
    expect(line).toHaveAttribute('dateTime', at);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says plainly since when no share came once none of its workers is active', async () => {
    await inLanguage('en');
    renderWithQueries(
      <AlgorithmHashrates
        hashrates={[
          sha256(),
          {
            ...sha256({ countedUpTo: todayAt(13, 40), activeWorkers: 0, realtime: 0 }),
            algorithm: 'scrypt',
            coin: 'LTC',
          },
        ]}
      />,
    );
    expect(
      within(screen.getByRole('region', { name: 'SHA-256' })).getByText('Shares counted up to 14:05'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Scrypt' })).getByRole('status')).toHaveTextContent(
      'No shares since 13:40',
    );
  });

  it('says both in Arabic', async () => {
    await inLanguage('ar');
    const { unmount } = renderWithQueries(<AlgorithmHashrates hashrates={[sha256()]} />);
    expect(screen.getByText('الحصص محسوبة حتى 14:05')).toBeInTheDocument();
    unmount();
    renderWithQueries(
      <AlgorithmHashrates hashrates={[sha256({ activeWorkers: 0, countedUpTo: todayAt(13, 40) })]} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('لم تصل أي حصة منذ 13:40');
  });

  it("tells the time in the zone the miner chose, with the date when it is not today's", async () => {
    await inLanguage('en');
    setTimeZone('Asia/Riyadh');
    renderWithQueries(
      <AlgorithmHashrates
        hashrates={[sha256({ activeWorkers: 0, countedUpTo: '2026-11-27T21:30:00.000Z' })]}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('No shares since Nov 28, 2026, 12:30 AM');
  });

  it('says nothing before the first share, nor in the narrow sidebar', async () => {
    await inLanguage('en');
    const { container, unmount } = renderWithQueries(
      <AlgorithmHashrates hashrates={[sha256({ countedUpTo: null, activeWorkers: 0 })]} />,
    );
    expect(container.querySelector('time')).toBeNull();
    unmount();
    renderWithQueries(<AlgorithmHashrates hashrates={[sha256()]} compact />);
    expect(screen.queryByText(/Shares counted up to/)).not.toBeInTheDocument();
  });

  it("says a worker's age by its last share, and since when once it is not online", async () => {
    await inLanguage('en');
    const { rerender } = render(<WorkerSharesAge worker={{ lastSeen: todayAt(14, 5), status: 'online' }} />);
    expect(screen.getByText('Shares counted up to 14:05')).toBeInTheDocument();
    rerender(<WorkerSharesAge worker={{ lastSeen: todayAt(13, 40), status: 'connected' }} />);
    expect(screen.getByRole('status')).toHaveTextContent('No shares since 13:40');
    rerender(<WorkerSharesAge worker={{ lastSeen: null, status: 'connected' }} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
