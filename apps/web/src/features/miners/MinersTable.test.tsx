import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../dashboard/test-utils';
import { MinersTable } from './MinersTable';
import { NoticeRegion, useNotice } from './notice';

const s19 = {
  id: 1,
  name: 'Antminer S19',
  type: 'asic',
  algorithm: 'kaspa',
  workerName: 'rig1',
  status: 'warning',
  hashrate: 9e12,
  workers: 1,
  lastSeen: null,
};
const ports = {
  host: 'pool.manjam.example',
  ports: [{ algorithm: 'kheavyhash', name: 'kHeavyHash', port: 7777, live: false }],
};

function Harness() {
  const { notice, show, dismiss } = useNotice();
  return (
    <>
      <MinersTable notify={show} />
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </>
  );
}

function api(deleted: { value: boolean }) {
  return mockFetch((url, init) => {
    if (url.pathname === '/api/pool/ports') return json(ports);
    if (url.pathname === '/api/miners/1' && init?.method === 'DELETE') {
      deleted.value = true;
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/api/miners') {
      const type = url.searchParams.get('type');
      return json({ miners: deleted.value || type === 'gpu' ? [] : [s19] });
    }
    return undefined;
  });
}

function stubClipboard(writeText: (text: string) => Promise<void>): void {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('Your Miners table', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it("copies a connection string with the pool's host and the algorithm's port", async () => {
    signInForTest('amal');
    api({ value: false });
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    renderScreen(<Harness />);
    const row = (await screen.findByText('Antminer S19')).closest('tr');
    expect(row && within(row).getByText('Warning')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Copy connection string for Antminer S19' });
    fireEvent.click(screen.getByRole('button', { name: 'Copy connection string for Antminer S19' }));
    expect(await screen.findByText('Connection string copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('stratum+tcp://pool.manjam.example:7777 -u amal.rig1 -p x');
  });

  it('says so when the clipboard refuses', async () => {
    signInForTest();
    api({ value: false });
    stubClipboard(() => Promise.reject(new Error('denied')));
    renderScreen(<Harness />);
    await screen.findByText('Antminer S19');
    fireEvent.click(screen.getByRole('button', { name: 'Copy connection string for Antminer S19' }));
    expect(
      await screen.findByText('Failed to copy connection string. Please try again.'),
    ).toBeInTheDocument();
  });

  it('shows the empty message of a type tab', async () => {
    signInForTest();
    api({ value: false });
    renderScreen(<Harness />);
    fireEvent.click(await screen.findByRole('tab', { name: 'GPU' }));
    expect(
      await screen.findByText('No GPU miners found. Add a new miner to get started.'),
    ).toBeInTheDocument();
  });

  it('deletes a miner after the Confirm Delete dialog', async () => {
    signInForTest();
    api({ value: false });
    renderScreen(<Harness />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Antminer S19' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Delete' });
    expect(
      within(dialog).getByText(
        'Are you sure you want to delete the miner "Antminer S19"? This action cannot be undone.',
      ),
    ).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Miner deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByText('No miners found. Add a new miner to get started.')).toBeInTheDocument();
  });
});
