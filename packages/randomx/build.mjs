// Builds the addon with node-gyp (npm runs this on `npm ci`/`npm install`). When this Node's own
// headers are installed beside it (Debian's nodejs puts them in /usr/include/node), node-gyp is
// pointed at them so no header download from nodejs.org is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const prefix = join(dirname(process.execPath), '..');
const versionHeader = join(prefix, 'include', 'node', 'node_version.h');

function headersMatch() {
  if (!existsSync(versionHeader)) return false;
  const text = readFileSync(versionHeader, 'utf8');
  const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.version;
}

const args = ['rebuild'];
if (headersMatch()) args.push(`--nodedir=${prefix}`);
// npm gives lifecycle scripts its bundled node-gyp; outside npm, use the one on PATH.
const gyp = process.env.npm_config_node_gyp;
const result = gyp
  ? spawnSync(process.execPath, [gyp, ...args], { stdio: 'inherit' })
  : spawnSync('node-gyp', args, { stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write(
    '[manjam] building the RandomX addon failed: it needs librandomx-dev (Debian), a C compiler and make.\n' +
      '  As root: apt-get install -y librandomx-dev build-essential\n',
  );
  process.exit(result.status ?? 1);
}
