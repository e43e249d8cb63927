import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { GUIDE_ALGORITHMS } from './algorithms';
import { GuideSteps } from './GuideSteps';

const sha256 = GUIDE_ALGORITHMS[0]!;

describe('worker setup guide steps', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows "Please enter a worker name" and stays on step 1 when the name is empty', () => {
    renderScreen(<GuideSteps algorithm={sha256} host="pool.manjam.example" port={3333} />);
    fireEvent.change(screen.getByLabelText('Worker name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please enter a worker name')).toBeInTheDocument();
    expect(screen.getByLabelText('Worker name')).toBeInTheDocument();
  });

  it('completes step 1 with a valid name and opens step 2 with the algorithm software', () => {
    signInForTest('amal');
    renderScreen(<GuideSteps algorithm={sha256} host="pool.manjam.example" port={3333} />);
    fireEvent.change(screen.getByLabelText('Worker name'), { target: { value: 'rig7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByLabelText('Worker name')).not.toBeInTheDocument();
    expect(screen.getByText('Completed')).toBeInTheDocument();
    expect(screen.getByText(/Braiins OS/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('stratum+tcp://pool.manjam.example:3333')).toBeInTheDocument();
    expect(screen.getByText('amal.rig7')).toBeInTheDocument();
    // CPU and GPU miners learn they can ask for a lower starting difficulty.
    expect(
      screen.getByText(/CPU or GPU miner\? Ask for a lower starting difficulty in the password: x,d=0\.01/),
    ).toBeInTheDocument();
  });

  it('keeps step 4 open after a successful test so the miner reads the result, then Continue opens step 5', async () => {
    signInForTest('amal');
    mockFetch((url) =>
      url.pathname === '/api/workers/rig7/connection'
        ? json({ connected: true, lastShareAt: null, acceptedShares: 3 })
        : undefined,
    );
    renderScreen(<GuideSteps algorithm={sha256} host="pool.manjam.example" port={3333} />);
    fireEvent.change(screen.getByLabelText('Worker name'), { target: { value: 'rig7' } });
    for (let step = 1; step <= 3; step++) fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('Connection successful! Worker registered')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connected' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('link', { name: 'Open the dashboard' })).toBeInTheDocument();
  });
});
