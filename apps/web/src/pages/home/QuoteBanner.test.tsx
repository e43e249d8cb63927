import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { QUOTE_INTERVAL_MS, QuoteBanner } from './QuoteBanner';

function mockReducedMotion(reduce: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  initI18n('en');
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('quote banner', () => {
  it('rotates through the seven quotes every 8 seconds', async () => {
    mockReducedMotion(false);
    render(<QuoteBanner />);
    expect(screen.getByText('1 of 7')).toBeInTheDocument();
    await advance(QUOTE_INTERVAL_MS);
    expect(screen.getByText('2 of 7')).toBeInTheDocument();
    await advance(QUOTE_INTERVAL_MS * 6);
    expect(screen.getByText('1 of 7')).toBeInTheDocument();
  });

  it('stops rotating when paused', async () => {
    mockReducedMotion(false);
    render(<QuoteBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await advance(QUOTE_INTERVAL_MS * 3);
    expect(screen.getByText('1 of 7')).toBeInTheDocument();
  });

  it('does not rotate by itself when the visitor prefers reduced motion, but the buttons still work', async () => {
    mockReducedMotion(true);
    render(<QuoteBanner />);
    await advance(QUOTE_INTERVAL_MS * 3);
    expect(screen.getByText('1 of 7')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Previous quote' }));
    expect(screen.getByText('7 of 7')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next quote' }));
    expect(screen.getByText('1 of 7')).toBeInTheDocument();
  });
});
