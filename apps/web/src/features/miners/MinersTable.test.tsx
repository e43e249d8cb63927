import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
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
  linked: [{ id: 7, name: 'rig1', coin: 'KAS', online: true }],
  lastSeen: null,
};
const laptop = {
  id: 9,
  name: 'laptop',
  coin: 'BTC',
  online: true,
  algorithm: 'sha256',
  type: 'cpu',
  hashrate: 2.5e6,
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

function api(deleted: { value: boolean }, undeclared: unknown[] = [], created: unknown[] = []) {
  return mockFetch((url, init) => {
    if (url.pathname === '/api/miners' && init?.method === 'POST') {
      created.push(JSON.parse(init.body as string));
      return json({ ...s19, id: 2 }, 201);
    }
    if (url.pathname === '/api/pool/ports') return json(ports);
    if (url.pathname === '/api/miners/1' && init?.method === 'DELETE') {
      deleted.value = true;
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/api/miners') {
      const type = url.searchParams.get('type');
      return json({ miners: deleted.value || type === 'gpu' ? [] : [s19], undeclared });
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

  it('lists the workers that mine for a miner, linked to their pages', async () => {
    signInForTest();
    api({ value: false });
    renderScreen(<Harness />);
    const row = (await screen.findByText('Antminer S19')).closest('tr');
    expect(row && within(row).getByRole('link', { name: 'rig1' })).toHaveAttribute('href', '/workers/7');
  });

  it('never says "no miners" while a worker mines, and declares it from its own name and algorithm', async () => {
    signInForTest();
    const created: unknown[] = [];
    api({ value: true }, [laptop], created);
    renderScreen(<Harness />);
    expect(
      await screen.findByText('No miners declared yet. One worker is mining: declare it below.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No miners found. Add a new miner to get started.')).toBeNull();
    expect(screen.getByText('Mining now, not declared as a miner')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Declare laptop as a miner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add CPU Miner' });
    expect(within(dialog).getByLabelText('Miner Name')).toHaveValue('laptop');
    expect(within(dialog).getByLabelText('Worker')).toHaveValue('laptop');
    expect(within(dialog).getByLabelText('Algorithm')).toHaveValue('sha256');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Miner' }));
    await screen.findByText('Miner added successfully!');
    expect(created).toEqual([{ name: 'laptop', type: 'cpu', algorithm: 'sha256', workerName: 'laptop' }]);
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
