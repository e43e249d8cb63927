import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { initI18n } from '../src/i18n';
import type { Language, User } from '../src/lib/api-types';
import { STORAGE_KEYS } from '../src/lib/storage';

export const TEST_USER: User = {
  id: 1,
  username: 'sahara_miner',
  email: 'miner@example.com',
  walletAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  preferredCoin: 'BTC',
  twoFactorEnabled: false,
  operator: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  activeWorkers: 2,
  hashrates: [
    {
      algorithm: 'sha256',
      coin: 'BTC',
      realtime: 120e12,
      hour: 120e12,
      day: 118e12,
      activeWorkers: 2,
      countedUpTo: '2026-01-01T00:00:00.000Z',
    },
  ],
  balance: '1234500',
};

export function signInForTest(user: User = TEST_USER): void {
  localStorage.setItem(STORAGE_KEYS.token, 'test-token');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

/** Shows the current path so tests can assert redirects. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface RenderOptions {
  route?: string;
  lang?: Language;
  /** Extra routes, e.g. a probe at the redirect target. */
  path?: string;
}

export function renderWithApp(
  ui: ReactElement,
  { route = '/', lang = 'en', path = '*' }: RenderOptions = {},
): RenderResult {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  initI18n(lang);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
