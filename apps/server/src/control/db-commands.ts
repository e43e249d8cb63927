// The one-off commands that write to the pool's database: `manjam operator grant|revoke <email>`,
// `manjam payout-run <id> sent <txid> | failed` and `manjam block-recredit <block id>`. Each is parsed and run here, once, whoever
// runs it: the CLI on a database it opened itself, or the running pool on its own embedded
// database when the CLI asks it over the control socket (control/socket.ts) because the database
// is locked by that pool. What a command says goes to `io`, so both print the same lines.
import { formatCoinAmount } from '@manjam/protocol';
import { recreditBlock, RecreditBlockError } from '../accounting/recredit-block.js';
import { settleRun, SettleRunError, type Settlement } from '../accounting/settle-run.js';
import type { Database } from '../db/index.js';
import type { Logger } from '../logger.js';
import { setOperatorRole } from '../services/operator/operator-role.js';

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** A parsed command, ready to run on an open database; its exit code (0 done, 2 refused). */
export type DbWork = (db: Database, logger: Logger, io: CommandIo) => Promise<number>;

export const DB_COMMANDS = ['operator', 'payout-run', 'block-recredit'] as const;
export type DbCommand = (typeof DB_COMMANDS)[number];

export function isDbCommand(name: string): name is DbCommand {
  return (DB_COMMANDS as readonly string[]).includes(name);
}

/** The command's work, or its usage line when the arguments are not the command's. */
export function parseDbCommand(command: DbCommand, args: readonly string[]): DbWork | { usage: string } {
  if (command === 'operator') return parseOperator(args);
  return command === 'payout-run' ? parsePayoutRun(args) : parseBlockRecredit(args);
}

function parseOperator(args: readonly string[]): DbWork | { usage: string } {
  const [action = '', email = ''] = args;
  if ((action !== 'grant' && action !== 'revoke') || email === '' || args.length !== 2)
    return { usage: 'usage: manjam operator grant <email> | manjam operator revoke <email>' };
  return async (db, logger, io) => {
    if ((await setOperatorRole(db, logger, action, email)) === undefined) {
      io.err(`manjam: there is no account with the email ${email}`);
      return 2;
    }
    io.out(
      action === 'grant'
        ? `${email} is now an operator (the console asks for a sign-in with password and 2FA code)`
        : `${email} is no longer an operator`,
    );
    return 0;
  };
}

function parsePayoutRun(args: readonly string[]): DbWork | { usage: string } {
  const [id = '', outcome = '', txid = ''] = args;
  const settlement: Settlement | undefined =
    outcome === 'sent' && txid !== ''
      ? { kind: 'sent', txid: txid.toLowerCase() }
      : outcome === 'failed' && txid === ''
        ? { kind: 'failed' }
        : undefined;
  if (!/^[1-9]\d*$/.test(id) || !settlement || args.length > 3)
    return { usage: 'usage: manjam payout-run <run id> sent <txid> | manjam payout-run <run id> failed' };
  return async (db, logger, io) => {
    try {
      const settled = await settleRun(db, logger, BigInt(id), settlement, 'cli');
      io.out(
        `payout run ${settled.runId} (${settled.coin}) is now ${settled.status}: ${settled.payouts} payouts, ` +
          `${formatCoinAmount(settled.total, settled.coin)} ${settlement.kind === 'sent' ? `paid by ${settlement.txid}` : 'given back to the balances'}`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof SettleRunError)) throw error;
      io.err(`manjam: ${error.message}`);
      return 2;
    }
  };
}

function parseBlockRecredit(args: readonly string[]): DbWork | { usage: string } {
  const [id = ''] = args;
  if (!/^[1-9]\d{0,9}$/.test(id) || args.length !== 1 || Number(id) > 2 ** 31 - 1)
    return { usage: 'usage: manjam block-recredit <block id>' };
  return async (db, logger, io) => {
    try {
      const done = await recreditBlock(db, logger, Number(id), 'cli');
      io.out(
        `${done.coin} block ${done.height} (id ${done.blockId}) credited back: ${done.payees} payees, ` +
          `${formatCoinAmount(done.total, done.coin)}; pending until it is mature on the chain`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof RecreditBlockError)) throw error;
      io.err(`manjam: ${error.message}`);
      return 2;
    }
  };
}
