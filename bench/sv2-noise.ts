// `npx tsx bench/sv2-noise.ts [seconds]`: SV2 handshakes/s and transport MB/s on one core.
import { measureNoise } from './lib/edge-sv2.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
measureNoise(new Report(`bench/results/sv2-noise-${date}.txt`), Number(process.argv[2] ?? 3));
