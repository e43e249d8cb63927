import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionPlan, readOpenFilesLimit } from './fd-budget.js';
import { parseConfig } from './load.js';

describe('the file-descriptor budget', () => {
  it('splits a 20,000 limit into a reserve, an HTTP cap and a cap per Stratum port that fit it', () => {
    const plan = connectionPlan(parseConfig({}), { soft: 20_000, hard: 20_000 });
    expect(plan).toMatchObject({
      limit: 20_000,
      source: 'proc',
      reserve: 2_000,
      http: { maxConnections: 4_500, maxConnectionsPerAddress: 64 },
      stratum: { ports: 4, maxConnectionsPerPort: 3_375 },
      fits: true,
    });
    expect(plan.committed).toBeLessThanOrEqual(20_000);
  });

  it('keeps the configured caps and says when they and the reserve overrun the limit', () => {
    const config = parseConfig({ http: { maxConnections: 900 }, stratum: { maxConnectionsPerPort: 100 } });
    expect(connectionPlan(config, { soft: 2_000, hard: 4_000 })).toMatchObject({
      reserve: 512,
      http: { maxConnections: 900 },
      stratum: { maxConnectionsPerPort: 100 },
      committed: 1_812,
      fits: true,
    });
    const over = parseConfig({ http: { maxConnections: 30_000 } });
    expect(connectionPlan(over, { soft: 20_000, hard: 20_000 }).fits).toBe(false);
  });

  it('never lets one address hold more than the whole HTTP cap', () => {
    const config = parseConfig({ http: { maxConnections: 10, maxConnectionsPerAddress: 64 } });
    expect(connectionPlan(config, { soft: 1_024, hard: 1_024 }).http.maxConnectionsPerAddress).toBe(10);
  });

  it('reads the soft and hard open-files limits from a /proc limits file, and assumes one without it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'manjam-limits-')), 'limits');
    writeFileSync(
      file,
      'Limit                     Soft Limit           Hard Limit           Units     \n' +
        'Max open files            1024                 20000                files     \n',
    );
    expect(readOpenFilesLimit(file)).toEqual({ soft: 1_024, hard: 20_000 });
    expect(readOpenFilesLimit(join(file, 'absent'))).toBeNull();
    expect(connectionPlan(parseConfig({}), null)).toMatchObject({ limit: 4_096, source: 'assumed' });
  });

  it('refuses a header deadline longer than the whole request deadline', () => {
    expect(() => parseConfig({ http: { headersTimeoutSeconds: 60, requestTimeoutSeconds: 30 } })).toThrow(
      /headersTimeoutSeconds/,
    );
  });
});
