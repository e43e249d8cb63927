import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureLitecoind, LITECOIND_PATH } from './litecoind.js';

const logger = pino({ level: 'silent' });

describe('finding litecoind', () => {
  afterEach(() => {
    delete process.env.MANJAM_LITECOIND;
  });

  it('finds the Debian package’s real binary, not the ~/.litecoin wrapper', async () => {
    expect(await ensureLitecoind(logger)).toBe(LITECOIND_PATH);
  });

  it('says which file is wrong when MANJAM_LITECOIND points nowhere', async () => {
    process.env.MANJAM_LITECOIND = '/nonexistent/litecoind';
    await expect(ensureLitecoind(logger)).rejects.toThrow(
      'MANJAM_LITECOIND=/nonexistent/litecoind is not an executable file',
    );
  });
});
