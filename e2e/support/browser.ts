// Playwright (playwright-core) driving Debian's Chromium: `npx playwright install` cannot work here.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOTS = resolve(fileURLToPath(new URL('../screenshots', import.meta.url)));
export const CHROMIUM = process.env.MANJAM_CHROMIUM ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type Language = 'en' | 'ar';

/** A context whose storage already holds the language (and, when given, a signed-in user). */
export async function newContext(
  browser: Browser,
  baseUrl: string,
  options: {
    language: Language;
    width?: number;
    /** Viewport height (900 unless given): a phone is checked at a phone's height. */
    height?: number;
    session?: { token: string; user: unknown };
    visited?: boolean;
  },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    acceptDownloads: true,
    reducedMotion: 'reduce',
  });
  const storage: Record<string, string> = { language: options.language };
  if (options.visited !== false) storage.hasVisitedBefore = 'true';
  if (options.session) {
    storage.token = options.session.token;
    storage.user = JSON.stringify(options.session.user);
  }
  await context.addInitScript((entries: Record<string, string>) => {
    if (sessionStorage.getItem('__manjam_seeded')) return;
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    sessionStorage.setItem('__manjam_seeded', '1');
  }, storage);
  return context;
}

/** The whole page, or (`fullPage: false`) what the viewport shows, as a dialog over the page is seen. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/**
 * The page's scroll width against the viewport, and what sticks out past it (an element inside a
 * container that scrolls sideways on purpose, as the Settings tab strip does on a phone, does not
 * widen the page and is not counted).
 */
export function pageOverflow(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const culprits: string[] = [];
    const inScroller = (element: Element): boolean => {
      for (let up = element.parentElement; up; up = up.parentElement)
        if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
      return false;
    };
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      if (inScroller(element)) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && (rect.right > window.innerWidth + 1 || rect.left < -1))
        culprits.push(`${element.tagName.toLowerCase()}.${String(element.className).split(' ').join('.')}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits: culprits.slice(0, 4) };
  });
}
