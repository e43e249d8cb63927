import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp, signInForTest, TEST_USER } from '../../test/render';
import { AppRoutes } from './routes';

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/me')
          ? jsonResponse(TEST_USER)
          : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

// Pages are lazy chunks: the first import of each one is slow under a cold transform.
const LAZY = { timeout: 8000 };

async function expectPath(path: string): Promise<void> {
  await waitFor(
    () => expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${path}$`)),
    LAZY,
  );
}

describe('route access rules', () => {
  it.each(['/dashboard', '/workers', '/revenue', '/settings'])(
    'sends a visitor who opens %s to /login',
    async (path) => {
      renderWithApp(<AppRoutes />, { route: path });
      await expectPath('/login');
      expect(await screen.findByRole('heading', { name: 'Login', level: 1 }, LAZY)).toBeInTheDocument();
    },
  );

  it('treats a token without a stored user as signed out', async () => {
    localStorage.setItem('token', 'orphan-token');
    renderWithApp(<AppRoutes />, { route: '/dashboard' });
    await expectPath('/login');
  });

  it.each(['/login', '/register'])('sends a signed-in user who opens %s to /dashboard', async (path) => {
    signInForTest();
    renderWithApp(<AppRoutes />, { route: path });
    await expectPath('/dashboard');
  });

  it('lets a signed-in user open a protected page and shows the side navigation', async () => {
    signInForTest();
    renderWithApp(<AppRoutes />, { route: '/settings' });
    await expectPath('/settings');
    expect(screen.getByRole('complementary', { name: 'Side navigation' })).toBeInTheDocument();
    expect(
      await screen.findByText('sahara_miner', { selector: '.profile-card__name' }, LAZY),
    ).toBeInTheDocument();
  });

  it('redirects an unknown path to /404 and shows Page Not Found with a way home', async () => {
    renderWithApp(<AppRoutes />, { route: '/no/such/page' });
    await expectPath('/404');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' }, LAZY)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('shows the not-found page in Arabic', async () => {
    renderWithApp(<AppRoutes />, { route: '/missing', lang: 'ar' });
    expect(await screen.findByRole('heading', { name: 'الصفحة غير موجودة' }, LAZY)).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
  });

  it('sends an unknown algorithm page to /404', async () => {
    renderWithApp(<AppRoutes />, { route: '/mining/not-a-coin' });
    await expectPath('/404');
  });

  it('asks a visitor to sign in on /payouts instead of redirecting', async () => {
    renderWithApp(<AppRoutes />, { route: '/payouts' });
    expect(await screen.findByRole('heading', { name: 'Payouts', level: 1 }, LAZY)).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expectPath('/payouts');
  });

  it('opens the public pages the seed links to without signing in', async () => {
    renderWithApp(<AppRoutes />, { route: '/terms' });
    expect(
      await screen.findByRole('heading', { name: 'Terms of Service', level: 1 }, LAZY),
    ).toBeInTheDocument();
  });
});
