import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { AddMinerModal } from './AddMinerModal';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'blake2s', name: 'Blake2s', port: 6666, live: false },
  ],
};

describe('Add Miner modal', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('offers the algorithms of the chosen device type and titles itself after it', async () => {
    signInForTest();
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<AddMinerModal type="gpu" onClose={() => undefined} notify={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Add GPU Miner' })).toBeInTheDocument();
    const algorithm = screen.getByLabelText('Algorithm');
    expect(
      within(algorithm)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Kadena', 'Kaspa']);
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:6666')).toBeInTheDocument();
    expect(screen.getByText('Not live yet')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Device type'), { target: { value: 'cpu' } });
    expect(screen.getByRole('dialog', { name: 'Add CPU Miner' })).toBeInTheDocument();
  });

  it('saves the miner with POST and switches to the setup guide with Got It', async () => {
    signInForTest('amal');
    let posted: unknown;
    mockFetch((url, init) => {
      if (url.pathname === '/api/pool/ports') return json(ports);
      if (url.pathname === '/api/miners' && init?.method === 'POST') {
        posted = JSON.parse(init.body as string);
        return json(
          {
            id: 9,
            name: 'S21',
            type: 'asic',
            algorithm: 'sha256',
            workerName: 'worker1',
            status: 'offline',
            hashrate: 0,
            workers: 0,
            lastSeen: null,
          },
          201,
        );
      }
      return undefined;
    });
    renderScreen(<AddMinerModal type="asic" onClose={() => undefined} notify={() => undefined} />);
    expect(screen.getByLabelText('Worker')).toHaveValue('worker1');
    expect(screen.getByLabelText('Password')).toHaveValue('x');
    fireEvent.click(screen.getByRole('button', { name: 'Save Miner' }));
    expect(screen.getByText('Miner Name is required')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Miner Name'), { target: { value: 'S21' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Miner' }));
    expect(await screen.findByRole('button', { name: 'Got It' })).toBeInTheDocument();
    expect(posted).toEqual({ name: 'S21', type: 'asic', algorithm: 'sha256', workerName: 'worker1' });
    expect(screen.getByRole('tab', { name: 'Setup Guide' })).toHaveAttribute('aria-selected', 'true');
  });
});
