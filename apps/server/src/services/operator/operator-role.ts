// The operator role (migration 0670), given or taken by email: what `manjam operator grant|revoke`
// does (control/db-commands.ts) and the console's Operators tab. No cache is told: the console reads each session and its role from the
// database on every request (http/routes/operator.ts), so a revoke ends access on the next one.
import type { Queryable } from '../../db/index.js';
import { UsersRepository } from '../../db/repositories/users.js';
import type { Logger } from '../../logger.js';

export type OperatorRoleAction = 'grant' | 'revoke';

/** Grants or revokes the role; the account's id, or undefined when no account has that email. */
export async function setOperatorRole(
  db: Queryable,
  logger: Logger,
  action: OperatorRoleAction,
  email: string,
  /** Who did it, for the log line: 'cli', or the console's operator (`operator:<user id>@<address>`). */
  by = 'cli',
): Promise<number | undefined> {
  const userId = await new UsersRepository(db).setOperator(email, action === 'grant');
  if (userId !== undefined)
    logger.warn({ userId, action, by }, `operator role ${action === 'grant' ? 'granted' : 'revoked'}`);
  return userId;
}
