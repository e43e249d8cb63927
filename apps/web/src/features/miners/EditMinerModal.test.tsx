import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Miner } from '../api-types';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { EditMinerModal } from './EditMinerModal';
import { NoticeRegion, useNotice } from './notice';

const miner: Miner = {
  id: 7,
  name: 'Antminer S19',
  type: 'asic',
  algorithm: 'sha256',
  workerName: 'rig7',
  status: 'online',
  hashrate: 95e12,
  workers: 1,
  linked: [],
  lastSeen: null,
};

function Harness() {
  const { notice, show, dismiss } = useNotice();
  return (
    <>
      <EditMinerModal miner={miner} onClose={() => undefined} notify={show} />
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </>
  );
}

describe('Edit Miner modal', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('requires a Miner Name and sends nothing without one', () => {
    const fetchMock = mockFetch(() => undefined);
    renderScreen(<Harness />);
    fireEvent.change(screen.getByLabelText('Miner Name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByText('Miner Name is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the edited name, algorithm and type with PUT and says so', async () => {
    signInForTest();
    const fetchMock = mockFetch((url, init) =>
      url.pathname === '/api/miners/7' && init?.method === 'PUT'
        ? json({ ...miner, name: 'Garage L7' })
        : undefined,
    );
    renderScreen(<Harness />);
    fireEvent.change(screen.getByLabelText('Miner Name'), { target: { value: ' Garage L7 ' } });
    fireEvent.change(screen.getByLabelText('Algorithm'), { target: { value: 'scrypt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Miner updated successfully!')).toBeInTheDocument();
    const body = fetchMock.mock.calls[0]?.[1]?.body;
    expect(typeof body).toBe('string');
    expect(JSON.parse(body as string)).toEqual({ name: 'Garage L7', algorithm: 'scrypt', type: 'asic' });
  });

  it('shows the server message when the update is refused', async () => {
    mockFetch(() => json({ error: { code: 'miner-not-found', message: 'Miner not found' } }, 404));
    renderScreen(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(screen.getByText('The miner could not be updated: Miner not found')).toBeInTheDocument(),
    );
  });
});
