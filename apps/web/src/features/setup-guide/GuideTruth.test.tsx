import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { DEFAULT_ALGORITHM_BY_TYPE } from './algorithms';
import { SetupGuide } from './SetupGuide';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: true },
  ],
};

describe('what the setup guide says and copies', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('has a RandomX tab, selected for a CPU, that lists RandomX', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide type="cpu" algorithm={DEFAULT_ALGORITHM_BY_TYPE.cpu} />);
    const tab = screen.getByRole('tab', { name: 'RandomX' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    const table = screen.getByRole('table');
    expect(within(table).getByRole('button', { name: 'Use RandomX' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Use SHA-256' })).not.toBeInTheDocument();
    expect(await within(table).findByText('1111')).toBeInTheDocument();
  });

  it('copies the pool settings of an ASIC as separate labelled values, and tells an ASIC it needs no software', async () => {
    signInForTest('amal');
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide type="asic" algorithm={DEFAULT_ALGORITHM_BY_TYPE.asic} />);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'rig1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/ASICs need no extra software/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy pool settings' }));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(writeText).toHaveBeenCalledWith(
      'Pool URL: stratum+tcp://pool.manjam.example:3333\nUsername: amal.rig1\nPassword: x',
    );
  });
});
