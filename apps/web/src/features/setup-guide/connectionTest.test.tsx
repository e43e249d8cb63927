import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import type { ConnectionStatus } from '../api-types';
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
      return Promise.resolve({
        connected: calls === 3,
        stage: calls === 3 ? ('sharing' as const) : ('waiting' as const),
        authorizedAt: null,
        lastShareAt: null,
        acceptedShares: calls === 3 ? 1 : 0,
      });
    });
    const outcome = pollConnection({ check, signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(4_000);
    await expect(outcome).resolves.toBe('connected');
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('gives up after 60 seconds, having asked 31 times, and keeps polling through failed requests', async () => {
    const check = vi.fn((): Promise<ConnectionStatus> => Promise.reject(new Error('offline')));
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
      return json({
        connected: calls >= 2,
        stage: calls >= 2 ? 'sharing' : 'waiting',
        authorizedAt: null,
        lastShareAt: null,
        acceptedShares: calls >= 2 ? 3 : 0,
      });
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
    mockFetch((url) =>
      url.pathname === '/api/workers/rig7/connection'
        ? json({
            connected: false,
            stage: 'waiting',
            authorizedAt: null,
            lastShareAt: null,
            acceptedShares: 0,
          })
        : undefined,
    );
    renderScreen(<ConnectionTestStep workerName="rig7" onConnected={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByText('30 seconds left')).toBeInTheDocument();
    expect(
      screen.queryByText('Connection failed. Please check your settings and try again.'),
    ).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(
      screen.getByText('Connection failed. Please check your settings and try again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test Connection' })).toBeEnabled();
  });
  it("passes on the first answer when the worker's last accepted share is recent, with no wait", async () => {
    mockFetch((url) =>
      url.pathname === '/api/workers/rig7/connection'
        ? json({
            connected: true,
            stage: 'sharing',
            authorizedAt: null,
            lastShareAt: new Date().toISOString(),
            acceptedShares: 5_000,
          })
        : undefined,
    );
    renderScreen(<ConnectionTestStep workerName="rig7" onConnected={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Connected' })).toBeDisabled();
  });

  it("names the worker's last accepted share when it is too old to count", async () => {
    mockFetch((url) =>
      url.pathname === '/api/workers/rig7/connection'
        ? json({
            connected: false,
            stage: 'waiting',
            authorizedAt: null,
            lastShareAt: '2026-01-02T03:04:00.000Z',
            acceptedShares: 40,
          })
        : undefined,
    );
    renderScreen(<ConnectionTestStep workerName="rig7" onConnected={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(screen.getByText(/last accepted share was .*, more than 10 minutes ago/)).toBeInTheDocument();
    expect(screen.queryByText(/Nothing connected as/)).not.toBeInTheDocument();
  });

  it('shows the stages as they happen and what to do at each; a connected miner without a share waits up to 10 minutes', async () => {
    let calls = 0;
    mockFetch((url) => {
      if (url.pathname !== '/api/workers/cpu1/connection') return undefined;
      calls += 1;
      const stage = calls === 1 ? 'waiting' : calls < 35 ? 'authorized' : 'sharing';
      return json({
        connected: stage === 'sharing',
        stage,
        authorizedAt: calls > 1 ? '2026-11-25T10:00:00Z' : null,
        lastShareAt: null,
        acceptedShares: stage === 'sharing' ? 1 : 0,
      });
    });
    renderScreen(<ConnectionTestStep workerName="cpu1" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    const stages = screen.getByRole('list', { name: 'Connection stages' });
    expect(stages).toHaveTextContent('Connection seen and authorized, not yet');
    expect(
      screen.getByText(/Waiting for .cpu1. to connect\. If nothing happens, check the pool URL and port/),
    ).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(stages).toHaveTextContent('Connection seen and authorized, done');
    expect(stages).toHaveTextContent('First share accepted, not yet');
    expect(
      screen.getByText(/is connected and authorized\. Waiting for its first accepted share.*x,d=0\.01/),
    ).toBeInTheDocument();
    // Past the first minute: still waiting for the share, not "failed".
    await act(async () => {
      await vi.advanceTimersByTimeAsync(70_000);
    });
    expect(
      screen.queryByText('Connection failed. Please check your settings and try again.'),
    ).not.toBeInTheDocument();
    expect(stages).toHaveTextContent('First share accepted, done');
    expect(screen.getByText('Connection successful! Worker registered')).toBeInTheDocument();
  });

  it('says a connected miner needs a lower starting difficulty when no share comes in 10 minutes', async () => {
    mockFetch((url) =>
      url.pathname === '/api/workers/cpu1/connection'
        ? json({
            connected: false,
            stage: 'authorized',
            authorizedAt: '2026-11-25T10:00:00Z',
            lastShareAt: null,
            acceptedShares: 0,
          })
        : undefined,
    );
    renderScreen(<ConnectionTestStep workerName="cpu1" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600_000);
    });
    expect(
      screen.getByText(
        /is connected but no share was accepted in 10 minutes\. Lower the starting difficulty with d= in the password/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByText('Connection failed. Please check your settings and try again.'),
    ).not.toBeInTheDocument();
  });
});
