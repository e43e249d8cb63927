import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../dashboard/test-utils';
import { SetupGuide } from './SetupGuide';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'etchash', name: 'Etchash', port: 8008, live: false },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: false },
  ],
};

describe('Worker Setup Guide', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens a GPU card on the Ethash tab with Etchash marked not live yet', async () => {
    signInForTest();
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide type="gpu" algorithm="ethash" />);
    expect(screen.getByRole('tab', { name: 'Ethash' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('GPU Rig')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(await within(table).findByText('Not live yet')).toBeInTheDocument();
    expect(within(table).getByText('8008')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Use Etchash' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('lists all 19 algorithms under All and the chosen one drives the pool URL', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide algorithm="sha256" />);
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    expect(within(screen.getByRole('table')).getAllByRole('button', { name: /^Use / })).toHaveLength(19);
    fireEvent.click(screen.getByRole('button', { name: 'Use RandomX' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/recommended programs for RandomX: XMRig\./)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:1111')).toBeInTheDocument();
  });
});
