import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { SetupGuide } from './SetupGuide';

// The authority key (base58check, SV2's version prefix) of the secret 0x07 x 32, as the server lists it.
const KEY = '9bnnNKKTbhwKVdPNaDYHvd8ezKqsBjB3kifgYsjswgQNtEGWXp6';
const V1_URL = 'stratum+tcp://pool.manjam.example:3333';
const V2_URL = `stratum2+tcp://pool.manjam.example:34254/${KEY}`;

const v1Ports = [
  { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
  { algorithm: 'scrypt', name: 'Scrypt', port: 4444, live: true },
];
const withV2 = {
  host: 'pool.manjam.example',
  ports: [
    ...v1Ports,
    { algorithm: 'sha256', name: 'SHA-256', port: 34254, live: true, protocol: 'v2', authorityKey: KEY },
  ],
};

/** Worker name, then the continue button (in the page's language) through steps 1 and 2. */
function openPoolInformation(continueLabel: string): void {
  fireEvent.change(screen.getByRole('textbox'), { target: { value: 'rig1' } });
  fireEvent.click(screen.getByRole('button', { name: continueLabel }));
  fireEvent.click(screen.getByRole('button', { name: continueLabel }));
}

describe('Worker Setup Guide with a Stratum V2 port', { timeout: PAGE_TEST_TIMEOUT }, () => {
  afterEach(async () => {
    await initI18n().changeLanguage('en');
  });

  it('offers an SHA-256 ASIC the Stratum V2 URL with the authority key beside the V1 URL, with a copy button', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(withV2) : undefined));
    renderScreen(<SetupGuide algorithm="sha256" />);
    expect(await within(screen.getByRole('table')).findByText('3333')).toBeInTheDocument();
    openPoolInformation('Continue');
    expect(await screen.findByText(V1_URL)).toBeInTheDocument();
    expect(screen.getByText(V2_URL)).toHaveAttribute('dir', 'ltr');
    expect(screen.getByText('Pool URL (Stratum V2, encrypted)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Pool URL (Stratum V2, encrypted)' })).toBeInTheDocument();
    expect(screen.getByText(/For Braiins OS and other Stratum V2 firmware/)).toBeInTheDocument();
  });

  it('shows the Stratum V2 URL in Arabic kept left-to-right, under an Arabic label', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(withV2) : undefined));
    renderScreen(<SetupGuide algorithm="sha256" />);
    await act(async () => {
      await initI18n().changeLanguage('ar');
    });
    expect(await within(screen.getByRole('table')).findByText('3333')).toBeInTheDocument();
    openPoolInformation('متابعة');
    expect(await screen.findByText(V1_URL)).toBeInTheDocument();
    expect(screen.getByText(V2_URL)).toHaveAttribute('dir', 'ltr');
    expect(screen.getByText('عنوان المجمّع (\u2066Stratum V2\u2069، مشفّر)')).toBeInTheDocument();
    expect(screen.getByText(/البرامج الثابتة التي تدعم/)).toBeInTheDocument();
  });

  it('shows only the V1 URL when the pool lists no Stratum V2 port', async () => {
    signInForTest('amal');
    mockFetch((url) =>
      url.pathname === '/api/pool/ports' ? json({ host: 'pool.manjam.example', ports: v1Ports }) : undefined,
    );
    renderScreen(<SetupGuide algorithm="sha256" />);
    expect(await within(screen.getByRole('table')).findByText('3333')).toBeInTheDocument();
    openPoolInformation('Continue');
    expect(await screen.findByText(V1_URL)).toBeInTheDocument();
    expect(screen.queryByText(/stratum2\+tcp/)).not.toBeInTheDocument();
    expect(screen.queryByText('Pool URL (Stratum V2, encrypted)')).not.toBeInTheDocument();
  });

  it('does not offer the SHA-256 V2 port on the Scrypt guide', async () => {
    signInForTest('amal');
    mockFetch((url) => (url.pathname === '/api/pool/ports' ? json(withV2) : undefined));
    renderScreen(<SetupGuide algorithm="scrypt" />);
    expect(await within(screen.getByRole('table')).findByText('4444')).toBeInTheDocument();
    openPoolInformation('Continue');
    expect(await screen.findByText('stratum+tcp://pool.manjam.example:4444')).toBeInTheDocument();
    expect(screen.queryByText(/stratum2\+tcp/)).not.toBeInTheDocument();
  });
});
