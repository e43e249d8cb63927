// The operator console's page tests: an operator signed in, the health every console page reads
// first, the API stubbed with the answers a test gives by path, and a table row found by a cell.
import type { OperatorHealth } from '@manjam/contract';
import { screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import { jsonResponse, TEST_USER } from './render';

export const OPERATOR = { ...TEST_USER, operator: true, twoFactorEnabled: true };
/** The console's tabs are loaded lazily: the first find waits for their code. */
export const LAZY = { timeout: 8000 };
/** When the stubbed figures were read. */
export const AS_OF = '2026-11-28T10:05:42.000Z';

export const OPERATOR_HEALTH: OperatorHealth = {
  asOf: AS_OF,
  status: 'ok',
  database: { ok: true, kind: 'postgres' },
  chains: [{ coin: 'BTC', ok: true, height: 840_123, newTipsBy: 'blocknotify' }],
  openAlerts: 0,
  shareLogBacklog: 0,
  accounting: [],
};

/** Stubs fetch: /api/me answers the operator, /api/operator/health the health above, `answers` by path, the rest 404. */
export function stubOperatorApi(answers: Record<string, unknown>): void {
  const byPath: Record<string, unknown> = {
    '/api/me': OPERATOR,
    '/api/operator/health': OPERATOR_HEALTH,
    ...answers,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const body = byPath[url.replace(/\?.*$/, '')];
      return Promise.resolve(
        body === undefined
          ? jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404)
          : jsonResponse(body),
      );
    }),
  );
}

/** The table row holding a cell whose whole text is `text`, to query within. */
export function rowWith(text: string) {
  const row = screen
    .getAllByRole('cell')
    .find((cell) => cell.textContent === text)
    ?.closest('tr');
  if (!row) throw new Error(`no row with a cell "${text}"`);
  return within(row);
}
