import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../i18n';
import { Modal } from './Modal';
import { StatCard } from './StatCard';
import { TabPanel, Tabs } from './Tabs';

beforeAll(() => {
  initI18n('en');
});

describe('Modal', () => {
  it('is a labelled dialog that takes focus, keeps Tab inside and closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <>
        <button type="button">outside</button>
        <Modal open title="Edit Miner" onClose={onClose} footer={<button type="button">Save Changes</button>}>
          <input aria-label="Miner Name" />
        </Modal>
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Miner' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const close = screen.getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    save.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(save).toHaveFocus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

function TabsDemo() {
  const [tab, setTab] = useState<'all' | 'asic' | 'gpu'>('all');
  return (
    <>
      <Tabs
        label="Miner types"
        idBase="demo"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'all', label: 'All Miners' },
          { id: 'asic', label: 'ASIC' },
          { id: 'gpu', label: 'GPU' },
        ]}
      />
      <TabPanel idBase="demo" value={tab}>{`panel ${tab}`}</TabPanel>
    </>
  );
}

describe('Tabs', () => {
  it('moves between tabs with the arrow keys, Home and End', () => {
    render(<TabsDemo />);
    const all = screen.getByRole('tab', { name: 'All Miners' });
    expect(all).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(all, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'ASIC' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'ASIC' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'ASIC' })).toHaveTextContent('panel asic');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'ASIC' }), { key: 'End' });
    expect(screen.getByRole('tab', { name: 'GPU' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'GPU' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'All Miners' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All Miners' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'GPU' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('StatCard', () => {
  it('colours a change green when it contains a plus sign and red otherwise', () => {
    render(
      <>
        <StatCard label="Hashrate" value="120 TH/s" change="+12.5%" />
        <StatCard label="Active Miners" value="3" change="-3.0%" />
      </>,
    );
    expect(screen.getByText('+12.5%').parentElement).toHaveAttribute('data-tone', 'up');
    expect(screen.getByText('-3.0%').parentElement).toHaveAttribute('data-tone', 'down');
  });
});
