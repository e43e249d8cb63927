import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../dashboard/test-utils';
import { pollConnection } from './connectionTest';
import { ConnectionTestStep } from './ConnectionTestStep';

beforeEach(() => {
  vi.useFakeTimers();
  signInForTest();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pollConnection', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks every 2 seconds and stops as soon as the worker is connected', async () => {
    let calls = 0;
    const check = vi.fn(() => {
      calls += 1;
      return Promise.resolve({ connected: calls === 3, lastShareAt: null, acceptedShares: calls === 3 ? 1 : 0 });
    });
    const outcome = pollConnection({ check, signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(4_000);
    await expect(outcome).resolves.toBe('connected');
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('gives up after 60 seconds, having asked 31 times, and keeps polling through failed requests', async () => {
    const check = vi.fn((): Promise<{ connected: boolean; lastShareAt: null; acceptedShares: number }> => Promise.reject(new Error('offline')));
    const outcome = pollConnection({ check, signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(outcome).resolves.toBe('timeout');
    expect(check).toHaveBeenCalledTimes(31);
  });
});

describe('Test Connection button', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows success and reads Connected once the API sees the worker', async () => {
    let calls = 0;
    const fetchMock = mockFetch((url) => {
      if (url.pathname !== '/api/workers/rig7/connection') return undefined;
      calls += 1;
      return json({ connected: calls >= 2, lastShareAt: null, acceptedShares: calls >= 2 ? 3 : 0 });
    });
    const onConnected = vi.fn();
    renderScreen(<ConnectionTestStep workerName="rig7" onConnected={onConnected} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('progressbar', { name: 'Connection test progress' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(screen.getByText('Connection successful! Worker registered')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connected' })).toBeDisabled();
    expect(onConnected).toHaveBeenCalledTimes(1);
    const request = fetchMock.mock.calls[0]?.[1];
    expect(new Headers(request?.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('reports failure after 60 seconds without the worker', async () => {
    mockFetch((url) => (url.pathname === '/api/workers/rig7/connection' ? json({ connected: false, lastShareAt: null, acceptedShares: 0 }) : undefined));
    renderScreen(<ConnectionTestStep workerName="rig7" onConnected={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByText('30 seconds left')).toBeInTheDocument();
    expect(screen.queryByText('Connection failed. Please check your settings and try again.')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByText('Connection failed. Please check your settings and try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test Connection' })).toBeEnabled();
  });
});
