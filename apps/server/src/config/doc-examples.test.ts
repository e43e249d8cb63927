// Every configuration example the docs show starts as written: each ```json block of README.md and
// docs/**/*.md is a configuration (a file's content or MANJAM_CONFIG_JSON's), and so is every
// `MANJAM_CONFIG_JSON='...'` line. A shape that is not a configuration (an API answer, a Stratum
// message) is written as ```jsonc or inline, never as ```json.
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

interface Example {
  where: string;
  json: string;
}

function examplesOf(path: string): Example[] {
  const text = readFileSync(path, 'utf8');
  const name = relative(ROOT, path);
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const fenced = [...text.matchAll(/^[ \t]*```json\n([\s\S]*?)^[ \t]*```/gm)].map((match) => ({
    where: `${name}:${lineOf(match.index)}`,
    json: match[1]!,
  }));
  const inline = [...text.matchAll(/MANJAM_CONFIG_JSON='([^']+)'/g)].map((match) => ({
    where: `${name}:${lineOf(match.index)}`,
    json: match[1]!,
  }));
  return [...fenced, ...inline];
}

const examples = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))].flatMap(examplesOf);

describe('configuration examples in README.md and docs/', () => {
  it('finds the examples (the mainnet chains, the Stratum V2 port, a region replica count)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('$where starts as written', ({ json }) => {
    const config = loadConfig({ env: { MANJAM_CONFIG_JSON: json }, cwd: tmpdir() });
    expect(config.stratum.ports.length).toBeGreaterThan(0);
  });

  it('gives a port written with only its number and coin the coin default vardiff', () => {
    const config = loadConfig({
      env: { MANJAM_CONFIG_JSON: '{"stratum":{"ports":[{"port":34254,"coin":"BTC","protocol":"v2"}]}}' },
      cwd: tmpdir(),
    });
    const defaults = loadConfig({ env: {}, cwd: tmpdir() }).stratum.ports.find((port) => port.coin === 'BTC');
    expect(config.stratum.ports[0]).toMatchObject({ scheme: 'pps-plus', vardiff: defaults?.vardiff });
  });

  it('refuses a vardiff whose start lies outside its own bounds, naming the key', () => {
    expect(() =>
      loadConfig({
        env: {
          MANJAM_CONFIG_JSON:
            '{"stratum":{"ports":[{"port":3333,"coin":"BTC","vardiff":{"start":1,"min":2}}]}}',
        },
        cwd: tmpdir(),
      }),
    ).toThrow(/stratum\.ports\.0\.vardiff: vardiff must satisfy min <= start <= max/);
  });
});
