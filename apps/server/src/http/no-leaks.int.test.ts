/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- tests read JSON bodies field by field */
// What a stranger learns from the API's edges: the operator console answers everyone else
// exactly as a path no route has, and is not in the public documents; a control character (a NUL
// byte above all) in a path, a query or a text field is refused with 400 and its reason in the
// reader's language, never a 500 from the database. Run on PostgreSQL and PGlite.
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const NUL_REASON = 'The request contains a control character (such as a NUL byte). Remove it and try again.';
const NUL_REASON_AR = 'يحتوي الطلب على محرف تحكّم (مثل البايت الصفري NUL). احذفه ثم حاول مجددًا.';

describeEachDatabase('the API edges a stranger can reach', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  const operatorRoutes = () =>
    api.http.routes.filter((route) => route.url.startsWith('/api/operator/')).map((r) => [r.method, r.url]);

  it('answers every operator route to a visitor and to a miner exactly as a missing route, in English and Arabic', async () => {
    const miner = await api.signUp();
    expect(operatorRoutes().length).toBeGreaterThanOrEqual(8);
    for (const language of ['en', 'ar']) {
      const headers = { 'accept-language': language };
      for (const [method = '', url = ''] of operatorRoutes()) {
        const body = method === 'POST' ? {} : undefined;
        const missing = await api.request(method, '/api/operatorx/health', { headers, body });
        expect(missing.json.error.code).toBe('route-not-found');
        for (const token of [undefined, miner.token]) {
          const answer = await api.request(method, url.replace(':id', '1'), { token, headers, body });
          expect({ url, status: answer.status, json: answer.json }).toEqual({
            url,
            status: missing.status,
            json: missing.json,
          });
        }
      }
    }
  });

  it('leaves the operator routes out of /api/openapi.json and the docs page', async () => {
    const doc = await api.request('GET', '/api/openapi.json');
    const paths = Object.keys(doc.json.paths as Record<string, unknown>);
    expect(paths).toContain('/api/dashboard');
    expect(paths.filter((path) => path.startsWith('/api/operator'))).toEqual([]);
    const docs = await api.request('GET', '/api/docs');
    expect(docs.text).not.toContain('/api/operator');
  });

  it('refuses a NUL byte in ids, lookups and the search query with 400 and the reason, in English and Arabic', async () => {
    const miner = await api.signUp();
    for (const path of [
      '/api/workers/%00/connection',
      '/api/miners/%00',
      '/api/miners/lookup/%00',
      '/api/search?q=%00',
      '/api/search?q=rig%01',
      '/api/workers/rig%7F/connection',
    ]) {
      const english = await api.request('GET', path, { token: miner.token });
      expect({ path, status: english.status, error: english.json.error }).toEqual({
        path,
        status: 400,
        error: { code: 'control-character', message: NUL_REASON },
      });
      const arabic = await api.request('GET', path, {
        token: miner.token,
        headers: { 'accept-language': 'ar' },
      });
      expect(arabic.json.error.message).toBe(NUL_REASON_AR);
    }
  });

  it('refuses a NUL byte in emails, worker, link and token names with 400, and saves nothing', async () => {
    const miner = await api.signUp();
    const cases: [string, string, Record<string, unknown>, string | undefined][] = [
      [
        'POST',
        '/api/auth/login',
        { email: 'a\u0000@example.com', password: 'correct horse battery' },
        undefined,
      ],
      [
        'POST',
        '/api/auth/register',
        {
          username: 'nul_user',
          email: 'nul\u0000@example.com',
          password: 'correct horse battery',
          preferredCoin: 'BTC',
        },
        undefined,
      ],
      ['PUT', '/api/workers/1', { name: 'rig\u0000' }, miner.token],
      [
        'POST',
        '/api/settings/watch-links',
        { label: 'Family\u0000', coins: ['BTC'], pages: ['dashboard'], password: miner.password },
        miner.token,
      ],
      ['POST', '/api/settings/api-tokens', { name: 'Grafana\u0007', password: miner.password }, miner.token],
    ];
    for (const [method, path, body, token] of cases) {
      const answer = await api.request(method, path, { token, body });
      expect({ path, status: answer.status, code: answer.json.error.code }).toEqual({
        path,
        status: 400,
        code: 'control-character',
      });
    }
    expect(
      (await api.request('GET', '/api/settings/watch-links', { token: miner.token })).json.links,
    ).toEqual([]);
    expect(
      (await api.request('GET', '/api/settings/api-tokens', { token: miner.token })).json.tokens,
    ).toEqual([]);
    // The same name without the control character is saved.
    const named = await api.request('POST', '/api/settings/api-tokens', {
      token: miner.token,
      body: { name: 'Grafana', password: miner.password },
    });
    expect(named.status).toBe(201);
  });

  it('refuses a push endpoint that is not a URL with 400 and the reason', async () => {
    const miner = await api.signUp();
    const answer = await api.request('PUT', '/api/notifications/push-subscription', {
      token: miner.token,
      body: { endpoint: 'y', keys: { p256dh: 'x', auth: 'y' } },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('validation-failed');
    expect(answer.json.error.fields.endpoint).toBe('Push endpoint must be an https URL');
  });

  it('refuses the same private and unresolvable targets as an alert webhook and as a push endpoint, saving neither', async () => {
    const miner = await api.signUp();
    const keys = {
      p256dh: createECDH('prime256v1').generateKeys('base64url'),
      auth: randomBytes(16).toString('base64url'),
    };
    const save = {
      webhook: (url: string) =>
        api.request('PUT', '/api/settings/webhook', { token: miner.token, body: { url } }),
      push: (url: string) =>
        api.request('PUT', '/api/notifications/push-subscription', {
          token: miner.token,
          body: { endpoint: url, keys },
        }),
    };
    for (const [kind, send] of Object.entries(save)) {
      const field = kind === 'webhook' ? 'url' : 'endpoint';
      for (const url of [
        'http://hooks.example.com/x',
        'https://localhost/x',
        'https://127.0.0.1/x',
        'https://[::ffff:7f00:1]/x',
        'https://169.254.169.254/latest/meta-data',
        'https://user:pw@hooks.example.com/x',
      ]) {
        const answer = await send(url);
        expect({ kind, url, status: answer.status, field: typeof answer.json.error.fields?.[field] }).toEqual(
          {
            kind,
            url,
            status: 400,
            field: 'string',
          },
        );
      }
      const unresolved = await send('https://no-such-host.invalid/x');
      expect({ kind, status: unresolved.status, message: unresolved.json.error.fields?.[field] }).toEqual({
        kind,
        status: 400,
        message: 'The host name of this URL could not be found. Check that it is spelled correctly.',
      });
    }
    expect(
      (await api.request('GET', '/api/settings/alerts', { token: miner.token })).json.webhook.url,
    ).toBeNull();
  });
});
