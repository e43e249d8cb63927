#!/usr/bin/env node
// The `manjam` command: start [--role all|stratum|api|accounting] [--region NAME] [--config FILE] | check-config | migrate | devchain | payout-run | block-recredit | operator | regions status
import { parseArgs } from 'node:util';
import { serialize } from 'node:v8';
import { loadConfigApart } from './config/apart.js';
import { ConfigError, ROLES, type Role } from './config/core.js';
import { isDbCommand } from './control/db-commands.js';

const USAGE = `usage: manjam <command> [options]
  start [--role all|stratum|api|accounting]   run the pool (default role: all)
        [--region NAME]                       a regional Stratum node's region (distributed.region)
  check-config                                read the configuration (file, MANJAM_CONFIG_JSON, variables),
                                              say what is wrong and exit 2, or exit 0
  migrate                                     apply database migrations and exit
  devchain                                    run the regtest dev chains only, print their RPC
  payout-run <id> sent <txid>                 settle a held payout run: its payees were paid by <txid>
  payout-run <id> failed                      settle a held payout run: nothing was paid, balances back
  block-recredit <block id>                   credit a returned block's payees back what was reversed
  operator grant <email>                      let the account use the operator console (needs 2FA)
  operator revoke <email>                     take the operator console away from the account
  regions status                              the share log, its sources and the job feed over NATS
options: --config FILE (or MANJAM_CONFIG)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string', default: 'all' },
      config: { type: 'string' },
      region: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      // check-config: print the configuration read (v8.serialize, base64) for config/apart.ts.
      emit: { type: 'boolean' },
    },
  });
  const command = positionals[0] ?? 'start';
  const known =
    ['start', 'check-config', 'migrate', 'devchain'].includes(command) ||
    isDbCommand(command) ||
    (command === 'regions' && positionals[1] === 'status');
  if (values.help || !known) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!ROLES.includes(values.role as Role)) {
    console.error(`manjam: --role must be one of ${ROLES.join(', ')}`);
    return 2;
  }
  // The Stratum role loads no zod: its configuration is read and checked in a child process of
  // this command (config/apart.ts); every other command reads it here.
  const config =
    command === 'start' && values.role === 'stratum'
      ? loadConfigApart([
          ...(values.config === undefined ? [] : ['--config', values.config]),
          ...(values.region === undefined ? [] : ['--region', values.region]),
        ])
      : (await import('./config/load.js')).loadConfig({
          file: values.config,
          ...(values.region === undefined ? {} : { overrides: { distributed: { region: values.region } } }),
        });
  if (command === 'check-config') {
    if (values.emit) process.stdout.write(serialize(config).toString('base64'));
    return 0;
  }
  const commands = await import('./commands.js');
  if (command === 'migrate') return commands.runMigrate(config);
  if (command === 'devchain') return commands.runDevchain(config);
  if (isDbCommand(command)) return commands.runDbCommand(config, command, positionals.slice(1));
  if (command === 'regions') {
    const { regionsStatus } = await import('./sharelog/regions-status.js');
    return regionsStatus(config, (line) => console.log(line));
  }
  return commands.runStart(config, values.role as Role);
}

/** Once a command is done, a handle left open (a socket, a timer) must not keep the process alive. */
const EXIT_GRACE_MS = 5_000;

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
    setTimeout(() => {
      console.error('manjam: still running 5 s after stopping (an open handle); exiting');
      process.exit(code);
    }, EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    if (
      error instanceof ConfigError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
