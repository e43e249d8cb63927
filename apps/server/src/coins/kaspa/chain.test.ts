import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import { startKaspaChain } from './chain.js';

describe('the KAS chain side', () => {
  it('is off, with one warning naming the folder, when the dev chain has no kaspad binaries', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const config = parseConfig({ chains: { KAS: { binDir: '/nonexistent/manjam-kaspa-bin' } } });
    expect(await startKaspaChain(config, logger)).toBeUndefined();
    expect(lines).toHaveLength(1);
    const warning = JSON.parse(lines[0] ?? '{}') as { msg?: string; binDir?: string };
    expect(warning.msg).toMatch(/^KAS is off: no kaspad/);
    expect(warning.binDir).toBe('/nonexistent/manjam-kaspa-bin');
  });

  it('is off without asking anything when chains.KAS.enabled is false', async () => {
    const config = parseConfig({ chains: { KAS: { enabled: false } } });
    expect(await startKaspaChain(config, pino({ level: 'silent' }))).toBeUndefined();
  });
});
