import {
  ACCOUNT_COINS,
  type ChangeEmailResponse,
  type Language,
  type RegisterResponse,
  type User,
} from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import type { UserRow } from '../../db/repositories/users.js';
import { RevenueQueries } from '../../db/repositories/queries-revenue.js';
import type { WorkersService } from '../workers/workers-service.js';
import type { EmailChange, EmailChangeRequest } from './email-change.js';
import type { Registration, RegisterInput } from './registration.js';

export type { RegisterInput } from './registration.js';

/** Account creation and the User view (with live worker count, hashrate and unpaid balance). */
export class AccountsService {
  private readonly revenue: RevenueQueries;

  constructor(
    db: Queryable,
    private readonly workers: WorkersService,
    private readonly registration: Registration,
    private readonly emailChange: EmailChange,
  ) {
    this.revenue = new RevenueQueries(db);
  }

  /** Registration (registration.ts): the same answer whether the email has an account or not. */
  register(input: RegisterInput): Promise<RegisterResponse> {
    return this.registration.register(input);
  }

  /** Creates the account of a confirmation link. */
  confirmEmail(token: string): Promise<void> {
    return this.registration.confirm(token);
  }

  /** An email change (email-change.ts): the same answer whether the new address has an account or not. */
  changeEmail(user: UserRow, request: EmailChangeRequest): Promise<ChangeEmailResponse> {
    return this.emailChange.request(user, request);
  }

  /** Makes the email change of a confirmation link. */
  confirmEmailChange(token: string, language: Language): Promise<void> {
    return this.emailChange.confirm(token, language);
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
      operator: user.isOperator,
      createdAt: user.createdAt.toISOString(),
      activeWorkers: snapshot.active,
      hashrates: snapshot.hashrates,
      balance: (balances.get(user.preferredCoin) ?? 0n).toString(),
      balances: ACCOUNT_COINS.filter((coin) => (balances.get(coin) ?? 0n) > 0n)
        .sort((a, b) => Number(b === user.preferredCoin) - Number(a === user.preferredCoin))
        .map((coin) => ({ coin, amount: (balances.get(coin) ?? 0n).toString() })),
      asOf: new Date(snapshot.at).toISOString(),
    };
  }
}
