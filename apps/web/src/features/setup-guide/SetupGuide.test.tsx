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

  it('lists all 19 algorithms under All; a port that is not live gets no URL to copy', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide algorithm="sha256" />);
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    expect(within(screen.getByRole('table')).getAllByRole('button', { name: /^Use / })).toHaveLength(19);
    fireEvent.click(screen.getByRole('button', { name: 'Use RandomX' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/recommended programs for RandomX: XMRig\./)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText(
        'RandomX is not live yet: port 1111 does not accept shares, so there is nothing to copy. Choose a live algorithm: SHA-256.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('stratum+tcp://pool.manjam.example:1111')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Copy/ })).not.toBeInTheDocument();
  });

  it('gives the live pool URL and the username each their own copy button', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide algorithm="sha256" />);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:3333')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Pool URL' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Username' })).toBeInTheDocument();
    expect(screen.getByText('amal.worker1')).toBeInTheDocument();
  });
});
