import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { AddMinerModal } from '../miners/AddMinerModal';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { kaspaCommands } from '../../coins/kaspa/commands';
import { SetupGuide } from './SetupGuide';

const ports = {
  host: 'pool.manjam.example',
  ports: [
    { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
    { algorithm: 'scrypt', name: 'Scrypt', port: 4444, live: true },
    { algorithm: 'kheavyhash', name: 'kHeavyHash', port: 7777, live: true },
    { algorithm: 'randomx', name: 'RandomX', port: 1111, live: false },
  ],
};

/** Worker name, then Continue through steps 1 and 2 to the pool information. */
function openPoolInformation(worker: string): void {
  fireEvent.change(screen.getByRole('textbox'), { target: { value: worker } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('Worker Setup Guide for Kaspa (kHeavyHash)', { timeout: PAGE_TEST_TIMEOUT }, () => {
  afterEach(async () => {
    await initI18n().changeLanguage('en');
  });

  it('gives a KS ASIC, lolMiner and BzMiner the live port 7777 with username.worker and password x', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide algorithm="kaspa" />);
    const table = screen.getByRole('table');
    expect(within(table).getByRole('button', { name: 'Use kHeavyHash' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await within(table).findByText('7777')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'ks0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/recommended programs for kHeavyHash: .*BzMiner, lolMiner/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('stratum+tcp://pool.manjam.example:7777')).toBeInTheDocument();
    expect(screen.getByText('amal.ks0')).toBeInTheDocument();
    const miners = screen.getByRole('region', { name: 'Kaspa miners' });
    expect(miners).toHaveTextContent('IceRiver KS0 to KS7, Bitmain Antminer KS3 or KS5');
    expect(miners).toHaveTextContent(
      'Worker \u2066amal.ks0\u2069 (or your Kaspa address, \u2066kaspa:<address>.ks0\u2069) and password x',
    );
    expect(
      within(miners).getByText('lolMiner --algo KASPA --pool pool.manjam.example:7777 --user amal.ks0'),
    ).toBeInTheDocument();
    expect(
      within(miners).getByText('bzminer -a kaspa -w amal.ks0 -p stratum+tcp://pool.manjam.example:7777'),
    ).toBeInTheDocument();
    expect(within(miners).getByRole('button', { name: 'Copy the lolMiner command' })).toBeInTheDocument();
    expect(within(miners).getByRole('button', { name: 'Copy the BzMiner command' })).toBeInTheDocument();
    expect(miners).toHaveTextContent('A CPU mines Kaspa too, but only at a few kH/s to a few MH/s');
  });

  it('builds the commands from one helper: lolMiner host:port, BzMiner the stratum URL', () => {
    expect(kaspaCommands('h.example', 17777, 'amal.gpu1')).toEqual({
      lolminer: 'lolMiner --algo KASPA --pool h.example:17777 --user amal.gpu1',
      bzminer: 'bzminer -a kaspa -w amal.gpu1 -p stratum+tcp://h.example:17777',
    });
  });

  it('opens the CPU card on Kaspa, the seed’s CPU algorithm, when RandomX is not live, with the plain CPU line', async () => {
    signInForTest('amal');
    const kaspaOnly = {
      host: 'pool.manjam.example',
      ports: ports.ports.map((p) => ({ ...p, live: p.algorithm === 'kheavyhash' })),
    };
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(kaspaOnly) : undefined));
    renderScreen(<SetupGuide type="cpu" algorithm="randomx" />);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Use kHeavyHash' })).toHaveAttribute('aria-pressed', 'true'),
    );
    openPoolInformation('desk');
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:7777')).toBeInTheDocument();
    expect(
      screen.getByText(/A CPU mines Kaspa too, but only at a few kH\/s to a few MH\/s/),
    ).toBeInTheDocument();
  });

  it('shows the Arabic Kaspa steps with the commands kept left-to-right', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<SetupGuide algorithm="kaspa" />);
    await act(async () => {
      await initI18n().changeLanguage('ar');
    });
    expect(await within(screen.getByRole('table')).findByText('7777')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'ks5' } });
    fireEvent.click(screen.getByRole('button', { name: 'متابعة' }));
    fireEvent.click(screen.getByRole('button', { name: 'متابعة' }));
    const miners = await screen.findByRole('region', { name: 'أجهزة تعدين كاسبا' });
    expect(miners).toHaveTextContent('آيس ريفر من KS0 إلى KS7');
    const command = within(miners).getByText(
      'lolMiner --algo KASPA --pool pool.manjam.example:7777 --user amal.ks5',
    );
    expect(command).toHaveAttribute('dir', 'ltr');
  });
});

describe('Add Miner modal for a CPU (the seed offers Kaspa)', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('says plainly that a CPU mines Kaspa at kH/s to MH/s, far below a GPU or ASIC', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(ports) : undefined));
    renderScreen(<AddMinerModal type="cpu" onClose={() => undefined} notify={() => undefined} />);
    expect(screen.getByLabelText('Algorithm')).toHaveValue('kaspa');
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:7777')).toBeInTheDocument();
    expect(
      screen.getByText(/far below a GPU \(hundreds of MH\/s and more\) or a kHeavyHash ASIC \(TH\/s\)/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/earn .* a day/)).not.toBeInTheDocument();
  });
});
