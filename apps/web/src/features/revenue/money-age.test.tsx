// A failed payout says why, and the money figures say how old they are (issue 27), in English and Arabic.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { STORAGE_KEYS } from '../../lib/storage';
import type { Payout } from '../api-types';
import { CreditedUpTo } from './CreditedUpTo';
import { PayoutsTable } from './PayoutsTable';

const base: Payout = {
  id: 1,
  date: '2026-11-27T03:00:00Z',
  amount: '133947000000000',
  coin: 'BTC',
  txId: null,
  status: 'failed',
  address: 'rb1qexample',
  confirmations: 0,
  failure: 'wallet-short',
};
const pending: Payout = { ...base, id: 2, status: 'pending', failure: null, amount: '250000' };

async function inLanguage(lang: 'en' | 'ar'): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  await initI18n(lang).changeLanguage(lang);
}

/** The table as the screens render it (its amounts ask the settings query whether to hide figures). */
function renderTable(rows: Payout[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PayoutsTable rows={rows} empty="none" />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  await inLanguage('en');
});

/** Today at hh:mm in the browser's zone, as the API would send it (ISO, UTC). */
const todayAt = (hours: number, minutes: number): string => {
  const at = new Date();
  at.setHours(hours, minutes, 0, 0);
  return at.toISOString();
};

describe('a failed payout on the payouts table', () => {
  it("says the pool's wallet was short of funds beside the Failed badge, and Pending... only for a pending payout", async () => {
    await inLanguage('en');
    renderTable([base, pending]);
    const failedRow = screen.getByText('Failed').closest('tr');
    if (!failedRow) throw new Error('no row for the failed payout');
    expect(
      within(failedRow).getByText("Not sent: the pool's wallet was short of funds."),
    ).toBeInTheDocument();
    expect(
      within(failedRow).getByText('The amount is back in your balance and goes out with a later payout.'),
    ).toBeInTheDocument();
    expect(within(failedRow).queryByText('Pending...')).not.toBeInTheDocument();
    expect(screen.getAllByText('Pending...')).toHaveLength(1);
  });

  it('says it in Arabic too', async () => {
    await inLanguage('ar');
    renderTable([base]);
    expect(screen.getByText('فاشلة')).toBeInTheDocument();
    expect(screen.getByText('لم تُرسَل: رصيد محفظة المجمّع لم يكفِ.')).toBeInTheDocument();
    expect(screen.getByText('عاد المبلغ إلى رصيدك ويُرسَل مع دفعة لاحقة.')).toBeInTheDocument();
    expect(screen.queryByText('قيد الانتظار...')).not.toBeInTheDocument();
  });

  it('names each reason the server can send, and says only "Not sent" for an old row without one', async () => {
    await inLanguage('en');
    const rows: Payout[] = [
      { ...base, id: 3, failure: 'wallet-refused' },
      { ...base, id: 4, failure: 'not-sent' },
      { ...base, id: 5, failure: 'cancelled' },
      { ...base, id: 6, failure: null },
    ];
    renderTable(rows);
    expect(screen.getByText("Not sent: the pool's wallet refused the transaction.")).toBeInTheDocument();
    expect(
      screen.getByText('Not sent: the payout stopped before it reached the network.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Not sent: the pool operator cancelled this payout.')).toBeInTheDocument();
    expect(screen.getByText('Not sent.')).toBeInTheDocument();
  });
});

describe('the age of the money figures', () => {
  it('says "Credited up to 14:05" while credits keep up', async () => {
    await inLanguage('en');
    render(<CreditedUpTo figures={{ creditedUpTo: todayAt(14, 5), creditsBehind: false }} />);
    expect(screen.getByText('Credited up to 14:05')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says the credits are behind, and since when, once the server judges them late', async () => {
    await inLanguage('en');
    render(<CreditedUpTo figures={{ creditedUpTo: todayAt(9, 30), creditsBehind: true }} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Credits are running behind: shares after 09:30 are not counted in these figures yet.',
    );
  });

  it('says both in Arabic', async () => {
    await inLanguage('ar');
    const { rerender } = render(
      <CreditedUpTo figures={{ creditedUpTo: todayAt(14, 5), creditsBehind: false }} />,
    );
    expect(screen.getByText('الأرصدة مُقيَّدة حتى 14:05')).toBeInTheDocument();
    rerender(<CreditedUpTo figures={{ creditedUpTo: todayAt(14, 5), creditsBehind: true }} />);
    expect(screen.getByRole('status')).toHaveTextContent('احتساب الأرصدة متأخر: الحصص بعد 14:05');
  });

  it('shows nothing before accounting has credited the coin once', async () => {
    await inLanguage('en');
    const { container } = render(<CreditedUpTo figures={{ creditedUpTo: null, creditsBehind: false }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
