import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import type { Worker } from '../api-types';
import { EditWorkerDialog } from './EditWorkerDialog';

const rig = {
  id: 3,
  name: 'rig7',
  fullName: 'amal.rig7',
  coin: 'LTC',
  status: 'online',
  hashrate: 1e9,
  hashrate1h: 1e9,
  hashrate24h: 1e9,
  rejectRate: 0,
  sparkline: [],
  change: '0.0%',
  shares: 10,
  rejects: 0,
  lastSeen: null,
  type: 'asic',
  algorithm: 'scrypt',
} as unknown as Worker;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Edit Worker', () => {
  it("shows the worker's algorithm as its port's, not editable, and saves only the name and type", async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ ...rig, name: 'basement', type: 'gpu' }));
    vi.stubGlobal('fetch', fetchMock);
    const notify = vi.fn();
    renderWithApp(<EditWorkerDialog worker={rig} onClose={() => undefined} notify={notify} />);
    const algorithm = await screen.findByLabelText('Algorithm');
    expect(algorithm).toBeDisabled();
    expect(algorithm).toHaveAccessibleDescription('Set by the port this worker mines on.');
    fireEvent.change(screen.getByLabelText('Worker name'), { target: { value: 'basement' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'gpu' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Worker updated successfully!', 'success'));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/api\/workers\/3$/);
    expect(JSON.parse(init.body as string)).toEqual({ name: 'basement', type: 'gpu' });
  });
});
