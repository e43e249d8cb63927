// Direct API calls the browser tests use to set up users (the UI flows are tested separately).
export interface Session {
  token: string;
  user: { id: number; username: string; email: string };
}

export async function api<T>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string; language?: 'en' | 'ar' } = {},
): Promise<T> {
  const response = await fetch(new URL(path, baseUrl), {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      // As the web app does: the server keeps the language an account was registered in.
      ...(init.language ? { 'accept-language': init.language } : {}),
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} -> ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

let counter = 0;
export async function registerAndLogin(
  baseUrl: string,
  prefix = 'miner',
  language: 'en' | 'ar' = 'en',
): Promise<Session & { password: string }> {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}`;
  const email = `${username}@example.com`;
  const password = 'correct horse battery';
  await api(baseUrl, '/api/auth/register', {
    body: { username, email, password, preferredCoin: 'BTC' },
    language,
  });
  const session = await api<Session>(baseUrl, '/api/auth/login', { body: { email, password } });
  return { ...session, password };
}

/**
 * Waits until the API serves worker `id` to the account: a fixture row is not announced as the
 * share writer announces new workers, so the API's cached snapshot of the account takes it later.
 */
export async function waitForWorker(baseUrl: string, token: string, id: number): Promise<void> {
  for (let waited = 0; ; waited += 500) {
    const res = await fetch(new URL(`/api/workers/${id}`, baseUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status === 200) return;
    if (waited > 60_000) throw new Error(`worker ${id} not served: ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
