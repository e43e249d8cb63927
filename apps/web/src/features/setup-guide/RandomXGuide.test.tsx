import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { CPU_START_PASSWORD, DEFAULT_ALGORITHM_BY_TYPE } from './algorithms';
import { SetupGuide } from './SetupGuide';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'scrypt', name: 'Scrypt', port: 7777, live: true },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: true },
  ],
};

describe('Worker Setup Guide for a CPU (RandomX, Monero)', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens the CPU card on RandomX, live on port 1111, with XMRig and a starting difficulty in hashes', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide type="cpu" algorithm={DEFAULT_ALGORITHM_BY_TYPE.cpu} />);
    expect(screen.getByText('CPU Miner')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('button', { name: 'Use RandomX' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await within(table).findByText('1111')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'desk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      screen.getByText('Install one of the recommended programs for RandomX: XMRig.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/ASICs need no extra software/)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('stratum+tcp://pool.manjam.example:1111')).toBeInTheDocument();
    expect(screen.getByText('amal.desk')).toBeInTheDocument();
    // The command carries the password the text recommends (one value: CPU_START_PASSWORD).
    expect(
      screen.getByText(
        `xmrig -o stratum+tcp://pool.manjam.example:1111 -u amal.desk -p ${CPU_START_PASSWORD}`,
      ),
    ).toBeInTheDocument();
    // No fixed d= in hashes: the port's start and vardiff suit a 33 H/s CPU as well as a fast one.
    expect(CPU_START_PASSWORD).toBe('x');
    expect(screen.getByText(/RandomX difficulty counts hashes/)).toHaveTextContent(
      `password ${CPU_START_PASSWORD}, as on this command line`,
    );
    expect(screen.getByText(/RandomX difficulty counts hashes/)).toHaveTextContent(
      "adjusts it to your CPU's speed after its first shares",
    );
    expect(screen.queryByText(/x,d=0\.01/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy pool settings' })).toBeInTheDocument();
  });
});
