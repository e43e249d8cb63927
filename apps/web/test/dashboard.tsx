// Test helpers for the data screens: i18n (en), a fresh QueryClient without retries, a router,
// and a fetch mock that answers by method and path.
import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { vi, type Mock } from 'vitest';
import { initI18n } from '../src/i18n';

// The shared 2-core machine can be slow: give findBy/waitFor more room than the 1 s default.
configure({ asyncUtilTimeout: 8000 });

/** Test timeout for whole-page tests (lazy chunks, several queries). */
export const PAGE_TEST_TIMEOUT = 30_000;

export function renderScreen(ui: ReactElement, route = '/'): RenderResult & { client: QueryClient } {
  initI18n('en');
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}

export type Route = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces global fetch; unmatched requests get a 404 in the API's error shape. */
export function mockFetch(route: Route): Mock<typeof fetch> {
  const mock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const answer = await route(url, init);
    return answer ?? json({ error: { code: 'not-found', message: 'Not found' } }, 404);
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

export function signInForTest(username = 'amal'): void {
  localStorage.setItem('token', 'test-token');
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: 'u1',
      username,
      email: 'amal@example.com',
      walletAddress: null,
      preferredCoin: 'BTC',
      twoFactorEnabled: false,
      operator: false,
      createdAt: '2026-01-01T00:00:00Z',
      activeWorkers: 0,
      hashrates: [],
      balance: '0',
    }),
  );
}

/** The URLs a fetch mock was called with, as strings. */
export function requestedUrls(mock: Mock<typeof fetch>): string[] {
  return mock.mock.calls.map(([input]) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
  );
}
