// The installable app (issue 27): the manifest is served and valid, the service worker installs
// and keeps the app shell, and with the network cut a reload still shows the app with an offline
// notice, in English and Arabic. API answers are never taken from the shell's cache.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { startTestPool, type TestPool } from './support/pool.js';

let pool: TestPool;
let browser: Browser;
const figures: string[] = [];

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
});

afterAll(async () => {
  process.stdout.write(`Installable app: ${figures.join('; ')}\n`);
  await browser?.close();
  await pool?.stop();
});

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  lang: string;
  dir: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

describe('installable web app', () => {
  it('serves a valid manifest, linked from the page, whose icons all load', async () => {
    const response = await fetch(`${pool.baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/manifest\+json/);
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: 'Manjam · منجم',
      short_name: 'Manjam',
      start_url: '/dashboard',
      display: 'standalone',
      theme_color: '#0a1222',
      background_color: '#0a1222',
      lang: 'en',
      dir: 'auto',
    });
    const sizes = manifest.icons.map((icon) => `${icon.sizes}/${icon.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192/any', '512x512/any', '512x512/maskable']));
    for (const icon of manifest.icons) {
      const file = await fetch(`${pool.baseUrl}${icon.src}`);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get('content-type'), icon.src).toContain(icon.type);
    }
    const html = await (await fetch(`${pool.baseUrl}/`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(html).toContain('<meta name="theme-color" content="#0a1222" />');
    figures.push(`manifest ${manifest.icons.length} icons (${sizes.join(', ')})`);
  });

  it.each(['en', 'ar'] as Language[])(
    'installs the service worker and, offline, a reload still shows the app with an offline notice (%s)',
    async (language) => {
      const context = await newContext(browser, pool.baseUrl, { language, width: 1280 });
      const page = await context.newPage();
      await page.goto('/');
      await page.locator('main h1').first().waitFor();
      const scope = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.scope;
      });
      expect(scope).toBe(`${pool.baseUrl}/`);
      // The shell is stored once the worker is active: index.html and the built files it names.
      const shell = await page.evaluate(async () => {
        const names = (await caches.keys()).filter((name) => name.startsWith('manjam-shell-'));
        const cache = await caches.open(names[0] ?? '');
        const urls = (await cache.keys()).map((request) => new URL(request.url).pathname);
        return { names, urls };
      });
      expect(shell.names).toHaveLength(1);
      expect(shell.urls).toContain('/index.html');
      expect(shell.urls.some((url) => url.startsWith('/assets/'))).toBe(true);
      // A page never opened online (its own lazy chunk) is in the shell too.
      expect(shell.urls.some((url) => /^\/assets\/AboutPage-/.test(url))).toBe(true);
      // Let the page be controlled by the worker before the network goes.
      await page.reload();
      await page.locator('main h1').first().waitFor();
      await context.setOffline(true);
      const started = Date.now();
      await page.goto('/about');
      const notice =
        language === 'en'
          ? 'No network: Manjam opened from its saved copy. Figures will update when you are back online.'
          : 'لا يوجد اتصال بالشبكة: فُتح منجم من نسخته المحفوظة. ستُحدَّث الأرقام عند عودة الاتصال.';
      await page.getByText(notice).waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      await page.locator('header').first().waitFor();
      const offlineMs = Date.now() - started;
      // No API answer comes from the shell: nothing under /api was stored.
      const apiCached = await page.evaluate(async () => {
        const names = await caches.keys();
        let count = 0;
        for (const name of names)
          for (const request of await (await caches.open(name)).keys())
            if (new URL(request.url).pathname.startsWith('/api')) count += 1;
        return count;
      });
      expect(apiCached).toBe(0);
      await screenshot(page, `installable-offline-${language}`);
      figures.push(
        `${language}: shell ${shell.urls.length} files, offline reload drew the shell and its notice in ${offlineMs} ms, 0 API responses cached`,
      );
      await context.setOffline(false);
      await context.close();
    },
  );
});
