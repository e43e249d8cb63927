// Draws the installable app's PNG icons from the logo's SVGs (apps/web/public/favicon.svg and
// icons/maskable.svg, whose logo sits inside the 80 % safe zone) with the Chromium the e2e tests
// use: `node scripts/make-icons.mjs`. The PNGs are committed; run again only when the logo changes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PUBLIC = resolve(fileURLToPath(new URL('../apps/web/public', import.meta.url)));
const ICONS = [
  { svg: 'favicon.svg', out: 'icons/icon-192.png', size: 192 },
  { svg: 'favicon.svg', out: 'icons/icon-512.png', size: 512 },
  { svg: 'icons/maskable.svg', out: 'icons/maskable-512.png', size: 512 },
];

const browser = await chromium.launch({
  executablePath: process.env.MANJAM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = readFileSync(resolve(PUBLIC, icon.svg), 'utf8');
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
    );
    await page.screenshot({ path: resolve(PUBLIC, icon.out), omitBackground: true });
    await page.close();
    console.log(`${icon.out}: ${icon.size}x${icon.size}`);
  }
} finally {
  await browser.close();
}
