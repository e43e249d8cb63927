import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { DEFAULT_ALGORITHM_BY_TYPE } from './algorithms';
import { SetupGuide } from './SetupGuide';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'etchash', name: 'Etchash', port: 8008, live: false },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: false },
  ],
};

/** What the pool mines on this machine: SHA-256, Scrypt and RandomX live; Etchash not. */
const livePorts = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'scrypt', name: 'Scrypt', port: 7777, live: true },
    { algorithm: 'etchash', name: 'Etchash', port: 8008, live: false },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: true },
  ],
};

/** The same with Kaspa live too (kaspad installed). */
const kaspaPorts = {
  ...livePorts,
  ports: [...livePorts.ports, { algorithm: 'kheavyhash', name: 'kHeavyHash', port: 7778, live: true }],
};

describe('Worker Setup Guide', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens a GPU card on Kaspa when it is live, never on Etchash, which is not live', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(kaspaPorts) : undefined));
    renderScreen(<SetupGuide type="gpu" algorithm={DEFAULT_ALGORITHM_BY_TYPE.gpu} />);
    expect(screen.getByText('GPU Rig')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(await within(table).findByText('7778')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Use kHeavyHash' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('opens a GPU card on RandomX when Kaspa is not live', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(livePorts) : undefined));
    renderScreen(<SetupGuide type="gpu" algorithm={DEFAULT_ALGORITHM_BY_TYPE.gpu} />);
    expect(
      await within(screen.getByRole('table')).findByRole('button', { name: 'Use RandomX', pressed: true }),
    ).toBeInTheDocument();
  });

  it('opens a GPU card on Scrypt when neither Kaspa nor RandomX is live', async () => {
    signInForTest('amal');
    const noRandomx = {
      ...livePorts,
      ports: livePorts.ports.map((p) => (p.algorithm === 'randomx' ? { ...p, live: false } : p)),
    };
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(noRandomx) : undefined));
    renderScreen(<SetupGuide type="gpu" algorithm={DEFAULT_ALGORITHM_BY_TYPE.gpu} />);
    expect(
      await within(screen.getByRole('table')).findByRole('button', { name: 'Use Scrypt', pressed: true }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/recommended programs for Scrypt:/)).toBeInTheDocument();
  });

  it('describes the algorithm of the chosen filter tab in steps 2 and 3, not the one chosen before', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(livePorts) : undefined));
    renderScreen(<SetupGuide algorithm="ethash" />);
    expect(screen.getByRole('tab', { name: 'Ethash' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('8008')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Scrypt' }));
    expect(screen.getByRole('button', { name: 'Use Scrypt' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/recommended programs for Scrypt:/)).toBeInTheDocument();
    expect(screen.queryByText(/Etchash/)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:7777')).toBeInTheDocument();
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
