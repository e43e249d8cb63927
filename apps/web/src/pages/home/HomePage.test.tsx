import { PORT_TABLE } from '@manjam/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { algorithmStats } from '../../../test/pool-stats';
import { jsonResponse, renderWithApp } from '../../../test/render';
import HomePage, { searchTarget } from './HomePage';

describe('home page', () => {
  it('welcomes visitors and links Start Mining to /register and Learn More to /about', () => {
    renderWithApp(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to Manjam' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Start Mining' })[0]).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/about');
    expect(screen.getByRole('link', { name: 'Create Your Account' })).toHaveAttribute('href', '/register');
  });

  it('searches /miners with the trimmed, encoded text and ignores blank searches', () => {
    renderWithApp(<HomePage />);
    const box = screen.getByRole('searchbox', { name: 'Search by wallet address or worker ID' });
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    fireEvent.change(box, { target: { value: '  rig #1 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/miners?search=rig%20%231');
  });

  it('offers Start Mining only on the cards whose port accepts shares; the others say Not live yet', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.endsWith('/api/pool/ports')
            ? jsonResponse({
                host: 'pool.test',
                ports: PORT_TABLE.map((row) => ({
                  algorithm: row.algorithm,
                  name: row.name,
                  port: row.port,
                  live: row.algorithm === 'sha256' || row.algorithm === 'scrypt',
                })),
              })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
        ),
      ),
    );
    renderWithApp(<HomePage />);
    const card = (name: string) => screen.getByRole('heading', { name }).closest('li') as HTMLElement;
    expect(
      await within(card('SHA-256 (Bitcoin)')).findByRole('link', { name: 'Start Mining' }),
    ).toHaveAttribute('href', '/register');
    expect(within(card('Scrypt (Litecoin)')).getByRole('link', { name: 'Start Mining' })).toBeVisible();
    for (const name of ['Kadena', 'Kaspa', 'QUBIC', 'Ravencoin']) {
      expect(within(card(name)).queryByRole('link', { name: 'Start Mining' })).not.toBeInTheDocument();
      expect(within(card(name)).getByText('Not live yet')).toBeInTheDocument();
    }
    vi.unstubAllGlobals();
  });

  it('shows a live Kaspa card with the port the pool runs, its payout interval and a link to /mining/kaspa', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.endsWith('/api/pool/stats')
            ? jsonResponse({
                host: 'pool.test',
                algorithms: [
                  algorithmStats({ algorithm: 'kaspa', coin: 'KAS', port: 17777, payoutInterval: 24 }),
                ],
              })
            : url.endsWith('/api/pool/ports')
              ? jsonResponse({
                  host: 'pool.test',
                  ports: PORT_TABLE.map((row) => ({
                    algorithm: row.algorithm,
                    name: row.name,
                    port: row.algorithm === 'kheavyhash' ? 17777 : row.port,
                    live: row.algorithm === 'kheavyhash',
                  })),
                })
              : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
        ),
      ),
    );
    renderWithApp(<HomePage />);
    const card = screen.getByRole('heading', { name: 'Kaspa' }).closest('li') as HTMLElement;
    expect(await within(card).findByRole('link', { name: 'Start Mining' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(within(card).getByText('17777')).toBeInTheDocument();
    // Live, Kaspa is paid by the pool's own runs (24 h here), not on the seed's published 12 h.
    expect(await within(card).findByText('24 hours')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Connection details' })).toHaveAttribute(
      'href',
      '/mining/kaspa',
    );
    const bitcoin = screen.getByRole('heading', { name: 'SHA-256 (Bitcoin)' }).closest('li') as HTMLElement;
    expect(within(bitcoin).queryByText('3333')).not.toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('shows six feature cards and six algorithm cards with the published fees', () => {
    renderWithApp(<HomePage />);
    expect(screen.getByRole('heading', { name: 'Kaspa' }).closest('li')).toHaveTextContent('0.9%');
    expect(screen.getByRole('heading', { name: 'Kaspa' }).closest('li')).toHaveTextContent('12 hours');
    expect(searchTarget('bc1q test')).toBe('/miners?search=bc1q%20test');
  });

  it.each([
    ['en', 'Search by wallet address or worker ID', 'RandomX (Monero)', 'Not live yet'],
    ['ar', 'ابحث بعنوان المحفظة أو معرّف العامل', 'RandomX (مونيرو)', 'غير مفعّل بعد'],
  ] as const)(
    'leads with the live algorithms (RandomX among them), offers no Dogecoin and marks the others not live (%s)',
    async (lang, placeholder, randomx, notLive) => {
      vi.stubGlobal(
        'fetch',
        vi.fn((url: string) =>
          Promise.resolve(
            url.endsWith('/api/pool/ports')
              ? jsonResponse({
                  host: 'pool.test',
                  ports: PORT_TABLE.map((row) => ({
                    algorithm: row.algorithm,
                    name: row.name,
                    port: row.port,
                    live: ['sha256', 'scrypt', 'randomx'].includes(row.algorithm),
                  })),
                })
              : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
          ),
        ),
      );
      renderWithApp(<HomePage />, { lang });
      expect(screen.getByPlaceholderText(placeholder)).toBeInTheDocument();
      const section = screen.getByRole('heading', {
        level: 2,
        name: lang === 'en' ? 'Algorithms' : 'الخوارزميات',
      }).parentElement as HTMLElement;
      const card = await within(section).findByRole('heading', { name: randomx });
      await within(card.closest('li') as HTMLElement).findByText('1111');
      const titles = within(section)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent);
      expect(titles.slice(0, 3)).toEqual(
        lang === 'en'
          ? ['SHA-256 (Bitcoin)', 'Scrypt (Litecoin)', 'RandomX (Monero)']
          : ['SHA-256 (بيتكوين)', 'Scrypt (لايتكوين)', 'RandomX (مونيرو)'],
      );
      expect(within(section).getAllByText(notLive)).toHaveLength(4);
      expect(section).not.toHaveTextContent(/Dogecoin|دوجكوين/);
      vi.unstubAllGlobals();
    },
  );
});
