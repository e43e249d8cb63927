import type { RegisterRequest, User } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import type { UserRow } from '../../db/repositories/users.js';
import { UsersRepository } from '../../db/repositories/users.js';
import { RevenueQueries } from '../../db/repositories/queries-revenue.js';
import { ServiceError, validationError } from '../errors.js';
import { hashPassword } from '../auth/passwords.js';
import type { WorkersService } from '../workers/workers-service.js';
import { addressProblem } from './addresses.js';

export type RegisterInput = Required<Pick<RegisterRequest, 'username' | 'email' | 'password'>> & {
  walletAddress: string | null;
  preferredCoin: string;
};

/** Account creation and the User view (with live worker count, hashrate and unpaid balance). */
export class AccountsService {
  private readonly users: UsersRepository;
  private readonly revenue: RevenueQueries;

  constructor(
    db: Queryable,
    private readonly config: Config,
    private readonly workers: WorkersService,
  ) {
    this.users = new UsersRepository(db);
    this.revenue = new RevenueQueries(db);
  }

  async register(input: RegisterInput): Promise<UserRow> {
    if (input.walletAddress) {
      const problem = addressProblem(input.walletAddress, input.preferredCoin, this.config);
      if (problem) throw validationError({ walletAddress: problem });
    }
    const result = await this.users.insert(
      {
        username: input.username,
        email: input.email,
        passwordHash: await hashPassword(input.password),
        walletAddress: input.walletAddress,
        preferredCoin: input.preferredCoin,
      },
      this.config.accounting.defaultPayoutThreshold,
    );
    if ('taken' in result) {
      throw result.taken === 'username'
        ? new ServiceError(409, 'username-taken', 'usernameTaken', {
            username: 'This username is already taken',
          })
        : new ServiceError(409, 'email-taken', 'emailTaken', {
            email: 'An account with this email already exists',
          });
    }
    return result;
  }

  async view(user: UserRow): Promise<User> {
    const [snapshot, balances] = await Promise.all([
      this.workers.snapshot(user.id),
      this.revenue.balances(user.id),
    ]);
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      walletAddress: user.walletAddress,
      preferredCoin: user.preferredCoin as User['preferredCoin'],
      twoFactorEnabled: user.totpEnabled,
      createdAt: user.createdAt.toISOString(),
      activeWorkers: snapshot.active,
      hashrates: snapshot.hashrates,
      balance: (balances.get(user.preferredCoin) ?? 0n).toString(),
    };
  }
}
