import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import RegisterPage from './RegisterPage';

/** The pool's public stats: which network it runs BTC and LTC on. */
function stats(network: 'mainnet' | 'regtest'): Response {
  const row = (coin: 'BTC' | 'LTC', algorithm: string, port: number) => ({
    algorithm,
    coin,
    network,
    live: true,
    port,
    tls: false,
    hashrate: 0,
    miners: 0,
    workers: 0,
    networkHeight: 120,
    networkDifficulty: 1,
    fee: 1,
    payoutInterval: 24,
    scheme: 'pps-plus',
    blocksFound: 0,
  });
  return jsonResponse({
    host: 'pool.test',
    algorithms: [row('BTC', 'sha256', 3333), row('LTC', 'scrypt', 4444)],
  });
}

/** A server on `network` whose other answers (the registration) come from `answer`. */
function serve(
  answer: (url: string, init?: RequestInit) => Promise<Response>,
  network: 'mainnet' | 'regtest' = 'mainnet',
) {
  const fetchMock = vi.fn((url: string, init?: RequestInit) =>
    url.endsWith('/api/pool/stats') ? Promise.resolve(stats(network)) : answer(url, init),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const registerCalls = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.filter(([url]) => url.endsWith('/api/auth/register'));

function fill(label: RegExp, value: string): void {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('registration in English', () => {
  it('shows the required-field messages beneath each input when submitted empty', () => {
    const fetchMock = serve(() => Promise.reject(new Error('not called')));
    renderWithApp(<RegisterPage />, { route: '/register' });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('Username is required');
    expect(registerCalls(fetchMock)).toEqual([]);
  });

  it('shows length, email, mismatch and BTC address messages', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithApp(<RegisterPage />, { route: '/register' });
    fill(/^Username$/, 'ab');
    fill(/^Email$/, 'not-an-email');
    fill(/^Password$/, 'short');
    fill(/^Confirm Password$/, 'different');
    fill(/Wallet Address/, '0xabc');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid BTC address')).toBeInTheDocument();
  });

  it('checks Litecoin addresses when LTC is the preferred coin', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithApp(<RegisterPage />, { route: '/register' });
    fireEvent.change(screen.getByLabelText('Preferred Coin'), { target: { value: 'LTC' } });
    fill(/Wallet Address/, 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Please enter a valid LTC address')).toBeInTheDocument();
  });

  it('shows the server field errors beneath the inputs', async () => {
    serve(() =>
      Promise.resolve(
        jsonResponse(
          {
            error: {
              code: 'validation',
              message: 'Invalid input',
              fields: { username: 'This username is already taken' },
            },
          },
          409,
        ),
      ),
    );
    renderWithApp(<RegisterPage />, { route: '/register' });
    fill(/^Username$/, 'miner1');
    fill(/^Email$/, 'miner@example.com');
    fill(/^Password$/, 'correct horse');
    fill(/^Confirm Password$/, 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This username is already taken')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a failure, not a fake success, when the network call fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWithApp(<RegisterPage />, { route: '/register' });
    fill(/^Username$/, 'miner1');
    fill(/^Email$/, 'miner@example.com');
    fill(/^Password$/, 'correct horse');
    fill(/^Confirm Password$/, 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration failed. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/Registration successful/)).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('sends the form, shows Registering..., then (a pool that sends no email) the success message and goes to /login after 2 seconds', async () => {
    let resolve: (response: Response) => void = () => undefined;
    const fetchMock = serve(
      () =>
        new Promise<Response>((r) => {
          resolve = r;
        }),
    );
    renderWithApp(<RegisterPage />, { route: '/register' });
    fill(/^Username$/, 'miner1');
    fill(/^Email$/, ' miner@example.com ');
    fill(/^Password$/, 'correct horse');
    fill(/^Confirm Password$/, 'correct horse');
    fill(/Wallet Address/, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('button', { name: 'Registering...' })).toBeDisabled();
    const [, init] = registerCalls(fetchMock)[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      username: 'miner1',
      email: 'miner@example.com',
      password: 'correct horse',
      preferredCoin: 'BTC',
      walletAddress: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    resolve(jsonResponse({ next: 'sign-in' }, 202));
    expect(
      await screen.findByText('Registration successful! Taking you to the login page...'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  });
});

describe('registration on a pool that sends email', () => {
  function submit(email: string): void {
    fill(/^Username$/, 'miner1');
    fill(/^Email$/, email);
    fill(/^Password$/, 'correct horse');
    fill(/^Confirm Password$/, 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
  }

  it('shows "check your email" with the address, and stays on the page (the answer is the same for a taken address)', async () => {
    serve(() => Promise.resolve(jsonResponse({ next: 'confirm-email' }, 202)));
    renderWithApp(<RegisterPage />, { route: '/register' });
    submit(' owner@example.com ');
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(
      screen.getByText(/^We sent a message to owner@example\.com\. Open the link in it within 24 hours/),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('says it in Arabic too', async () => {
    serve(() => Promise.resolve(jsonResponse({ next: 'confirm-email' }, 202)));
    renderWithApp(<RegisterPage />, { route: '/register', lang: 'ar' });
    fill(/^اسم المستخدم$/, 'miner1');
    fill(/^البريد الإلكتروني$/, 'owner@example.com');
    fill(/^كلمة المرور$/, 'correct horse');
    fill(/^تأكيد كلمة المرور$/, 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'إنشاء حساب' }));
    expect(await screen.findByRole('heading', { name: 'تحقّق من بريدك الإلكتروني' })).toBeInTheDocument();
    expect(screen.getByText(/^أرسلنا رسالة إلى owner@example\.com\./)).toHaveAttribute('role', 'status');
  });
});

describe("payout addresses of the pool's network", () => {
  async function register(address: string, coin: 'BTC' | 'LTC', network: 'mainnet' | 'regtest') {
    const fetchMock = serve(() => Promise.resolve(jsonResponse({ next: 'sign-in' }, 202)), network);
    renderWithApp(<RegisterPage />, { route: '/register' });
    fill(/^Username$/, 'miner1');
    fill(/^Email$/, 'miner@example.com');
    fill(/^Password$/, 'correct horse');
    fill(/^Confirm Password$/, 'correct horse');
    fireEvent.change(screen.getByLabelText('Preferred Coin'), { target: { value: coin } });
    // The pool says which network it runs, and the field says what its addresses look like.
    expect(
      await screen.findByText(new RegExp(`${coin} addresses on this pool start with`)),
    ).toBeInTheDocument();
    fill(/Wallet Address/, address);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    return fetchMock;
  }

  it('tells which addresses the pool takes on its network', async () => {
    await register('', 'BTC', 'regtest');
    expect(screen.getByText(/BTC addresses on this pool start with rb1…, G…, R…\./)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Preferred Coin'), { target: { value: 'LTC' } });
    expect(
      screen.getByText(/LTC addresses on this pool start with rltc1…, 2…, Q…, m…, n…\./),
    ).toBeInTheDocument();
  });

  it("accepts the regtest dev chain's addresses (bcoin rb1 and R..., Litecoin rltc1)", async () => {
    for (const [address, coin] of [
      ['rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', 'BTC'],
      ['RKxTdfmtxtfLDKZBgx6SvNkBtNu9jRYnLh', 'BTC'],
      ['rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r', 'LTC'],
    ] as const) {
      const fetchMock = await register(address, coin, 'regtest');
      await waitFor(() => expect(registerCalls(fetchMock)).toHaveLength(1));
      expect(screen.queryByText(/Please enter a valid/)).not.toBeInTheDocument();
      cleanup();
    }
  });

  it('refuses a mainnet address, and Bitcoin Core regtest addresses the dev chain cannot pay, on the regtest pool', async () => {
    for (const address of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
    ]) {
      const fetchMock = await register(address, 'BTC', 'regtest');
      expect(screen.getByText('Please enter a valid BTC address')).toBeInTheDocument();
      expect(registerCalls(fetchMock)).toEqual([]);
      cleanup();
    }
  });

  it('refuses a regtest address on the mainnet pool', async () => {
    const fetchMock = await register('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', 'BTC', 'mainnet');
    expect(screen.getByText('Please enter a valid BTC address')).toBeInTheDocument();
    expect(registerCalls(fetchMock)).toEqual([]);
  });
});

describe('registration in Arabic', () => {
  it('shows the validation messages in Arabic', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithApp(<RegisterPage />, { route: '/register', lang: 'ar' });
    fireEvent.click(screen.getByRole('button', { name: 'إنشاء حساب' }));
    expect(screen.getByText('اسم المستخدم مطلوب')).toBeInTheDocument();
    expect(screen.getByText('البريد الإلكتروني مطلوب')).toBeInTheDocument();
    expect(screen.getByText('كلمة المرور مطلوبة')).toBeInTheDocument();
  });

  it('shows length, email, mismatch and BTC messages in Arabic', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithApp(<RegisterPage />, { route: '/register', lang: 'ar' });
    fill(/^اسم المستخدم$/, 'ab');
    fill(/^البريد الإلكتروني$/, 'x@');
    fill(/^كلمة المرور$/, '123');
    fill(/^تأكيد كلمة المرور$/, '1234');
    fill(/عنوان المحفظة/, 'zzz');
    fireEvent.click(screen.getByRole('button', { name: 'إنشاء حساب' }));
    expect(screen.getByText('يجب أن يتكون اسم المستخدم من 3 أحرف على الأقل')).toBeInTheDocument();
    expect(screen.getByText('يرجى إدخال بريد إلكتروني صالح')).toBeInTheDocument();
    expect(screen.getByText('يجب أن تتكون كلمة المرور من 8 أحرف على الأقل')).toBeInTheDocument();
    expect(screen.getByText('كلمتا المرور غير متطابقتين')).toBeInTheDocument();
    expect(screen.getByText('يرجى إدخال عنوان BTC صالح')).toBeInTheDocument();
  });
});
