import { describe, expect, it } from 'vitest';
import { cpuminerExamples } from './commands.js';

describe('the start banner', () => {
  it('shows cpuminer lines only for Stratum V1 ports, never for a V2 URL cpuminer cannot speak', () => {
    const lines = cpuminerExamples({
      exampleLogin: 'YOUR_USERNAME',
      stratum: [
        { coin: 'BTC', url: 'stratum+tcp://localhost:3333', live: true },
        {
          coin: 'BTC',
          url: 'stratum2+tcp://localhost:34254/9bXiEd8boQVhq7WddEcERUL5tyyJVFYdU8th3HfbNXK3Yw6GRXh',
          live: true,
        },
        { coin: 'LTC', url: 'stratum+tcp://localhost:4444', live: true },
        { coin: 'XMR', url: 'stratum+tcp://localhost:1111', live: true },
      ],
    });
    expect(lines).toEqual([
      '  cpuminer -a sha256d -o stratum+tcp://localhost:3333 -u YOUR_USERNAME.rig1 -p x',
      '  cpuminer -a scrypt -o stratum+tcp://localhost:4444 -u YOUR_USERNAME.rig1 -p x',
    ]);
  });
});
