import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import { AppRoutes } from '../../app/routes';
import { algorithmStats, servePoolStats } from '../../../test/pool-stats';

const stat = (port: number, scheme: string) =>
  algorithmStats({
    algorithm: 'sha256',
    coin: 'BTC',
    port,
    scheme,
    networkHeight: 900,
    networkDifficulty: 1,
  });

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  servePoolStats([stat(3333, 'pps-plus'), stat(3334, 'pplns'), stat(3335, 'solo')]);
});
afterEach(() => vi.unstubAllGlobals());

it('lists each live port of the algorithm with its own payout scheme', async () => {
  renderWithApp(<AppRoutes />, { route: '/mining/sha256' });
  const term = await screen.findByText('Payout scheme', { selector: 'dt' }, { timeout: 8000 });
  const items = within(term.parentElement as HTMLElement)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
  expect(items).toEqual(['3333 · PPS+', '3334 · PPLNS', '3335 · SOLO']);
});

it('offers no Copy for a port that does not accept shares and says it is not live yet', async () => {
  const ports = {
    host: 'pool.test',
    ports: [
      { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
      { algorithm: 'blake2s', name: 'Blake2s', port: 6666, live: false },
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/pool/ports')
          ? jsonResponse(ports)
          : url.endsWith('/api/pool/stats')
            ? jsonResponse({ host: 'pool.test', algorithms: [stat(3333, 'pps-plus')] })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
  renderWithApp(<AppRoutes />, { route: '/mining/kadena' });
  expect(
    await screen.findByText(
      'Nothing to copy yet: the pool does not accept Kadena shares. Live now: SHA-256.',
      undefined,
      { timeout: 8000 },
    ),
  ).toBeInTheDocument();
  expect(screen.getByText('Not live yet: this port does not accept shares today')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /^Copy/ })).not.toBeInTheDocument();
});

it('gives the live pool URL and the username each their own copy button', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/pool/ports')
          ? jsonResponse({
              host: 'pool.test',
              ports: [{ algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true }],
            })
          : url.endsWith('/api/pool/stats')
            ? jsonResponse({ host: 'pool.test', algorithms: [stat(3333, 'pps-plus')] })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
  renderWithApp(<AppRoutes />, { route: '/mining/sha256' });
  expect(await screen.findByRole('button', { name: 'Copy Pool URL' }, { timeout: 8000 })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Copy Username' })).toBeInTheDocument();
});

it('shows /mining/randomx live on port 1111 once the ports say so, with the CPU password guidance', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/pool/ports')
          ? jsonResponse({
              host: 'pool.test',
              ports: [
                { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
                { algorithm: 'randomx', name: 'RandomX', port: 1111, live: true },
              ],
            })
          : url.endsWith('/api/pool/stats')
            ? jsonResponse({ host: 'pool.test', algorithms: [stat(3333, 'pps-plus')] })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
  renderWithApp(<AppRoutes />, { route: '/mining/randomx' });
  expect(
    await screen.findByRole('heading', { name: 'RandomX mining' }, { timeout: 8000 }),
  ).toBeInTheDocument();
  expect(screen.getByText('Monero (XMR)')).toBeInTheDocument();
  expect(await screen.findByText('Live: shares are validated on this port')).toBeInTheDocument();
  expect(screen.getByText('stratum+tcp://pool.test:1111')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Copy Pool URL' })).toBeInTheDocument();
  expect(screen.getByText(/RandomX difficulty counts hashes/)).toHaveTextContent(
    'x: the pool starts at a difficulty a slow CPU meets within a minute and adjusts it to your speed',
  );
});

it('shows /mining/kaspa live on its port with what a KS ASIC, lolMiner and BzMiner type there', async () => {
  servePoolStats([
    algorithmStats({
      algorithm: 'kaspa',
      coin: 'KAS',
      port: 17777,
      scheme: 'pps-plus',
      networkHeight: 5000,
      networkDifficulty: 4,
    }),
  ]);
  renderWithApp(<AppRoutes />, { route: '/mining/kaspa' });
  expect(await screen.findByRole('heading', { name: 'Kaspa mining' }, { timeout: 8000 })).toBeInTheDocument();
  expect(await screen.findByText('Live: shares are validated on this port')).toBeInTheDocument();
  expect(screen.getByText('stratum+tcp://pool.test:17777')).toBeInTheDocument();
  const host = 'pool.test';
  const miners = screen.getByRole('region', { name: 'Kaspa miners' });
  expect(miners).toHaveTextContent('IceRiver KS0 to KS7, Bitmain Antminer KS3 or KS5');
  expect(
    within(miners).getByText(`lolMiner --algo KASPA --pool ${host}:17777 --user username.worker_name`),
  ).toBeInTheDocument();
  expect(
    within(miners).getByText(`bzminer -a kaspa -w username.worker_name -p stratum+tcp://${host}:17777`),
  ).toBeInTheDocument();
});

it.each([
  ['en', 'Litecoin (LTC)', /does not merge-mine Dogecoin/],
  ['ar', 'لايتكوين (LTC)', /لا يعدّن دوجكوين تعدينًا مدمجًا/],
] as const)('claims no Dogecoin merged mining on /mining/scrypt (%s)', async (lang, coins, disclaimer) => {
  renderWithApp(<AppRoutes />, { route: '/mining/scrypt', lang });
  expect(await screen.findByText(disclaimer, {}, { timeout: 8000 })).toBeInTheDocument();
  expect(screen.getByText(coins)).toBeInTheDocument();
  expect(
    screen.queryByText(/Dogecoin \(DOGE\)|دوجكوين \(DOGE\)|through merged mining|عبر التعدين المدمج/),
  ).toBeNull();
});
