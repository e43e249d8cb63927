// The tests run every repository test on PostgreSQL too (127.0.0.1:5432, database `test`, user and
// password `postgres`).
// On a machine where it is installed but stopped, start it; where it is missing, install it.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { canConnect, log, run } from './lib.mjs';

export async function ensurePostgres() {
  if (process.env.MANJAM_TEST_DATABASE_URL) return;
  if (!(await canConnect(5432))) {
    if (!existsSync('/etc/postgresql')) {
      if (process.getuid?.() !== 0)
        throw new Error(
          'PostgreSQL is not running on 127.0.0.1:5432; install it: apt-get install -y postgresql',
        );
      log('installing PostgreSQL (apt-get install postgresql)');
      run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
    const version = readdirSync('/etc/postgresql')[0];
    log(`starting PostgreSQL ${version}`);
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
    for (let i = 0; i < 50 && !(await canConnect(5432)); i++) await new Promise((r) => setTimeout(r, 200));
  }
  // The `test` database, and the password of the test URL (postgres:postgres): Debian's server asks
  // local TCP clients for a password (scram-sha-256); a server that trusts them ignores it.
  const psql = (sql) => spawnSync('su', ['postgres', '-c', `psql -tAc "${sql}"`], { encoding: 'utf8' });
  if (process.getuid?.() === 0) {
    const exists = psql("SELECT 1 FROM pg_database WHERE datname = 'test'");
    if (exists.status === 0 && exists.stdout.trim() !== '1') psql('CREATE DATABASE test');
    psql("ALTER ROLE postgres PASSWORD 'postgres'");
  }
}
