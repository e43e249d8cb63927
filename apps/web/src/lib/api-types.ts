// HTTP API types come from the shared contract (packages/contract, zod schemas). Only types are
// imported, so zod never reaches the browser bundle. The name lists the UI iterates over are the
// contract's, or kept here as literals checked at compile time against the contract's lists.
import { ACCOUNT_COINS } from '@manjam/contract';
import type {
  WatchPage as ContractWatchPage,
  AccountCoin,
  AlgorithmId,
  Language as ContractLanguage,
  PoolStats,
  Settings as ContractSettings,
  Network,
  PoolCoin,
} from '@manjam/contract';

export type {
  AccountHelp,
  ApiToken,
  ApiTokenList,
  AssistantRequest,
  AssistantResponse,
  Block,
  BlockPage,
  CreateApiToken,
  CreatedApiToken,
  CreateWatchLink,
  ChangeEmailRequest,
  ChangeEmailResponse,
  ChangePasswordRequest,
  ConfirmEmailRequest,
  ErrorBody as ApiErrorBody,
  LoginRequest,
  LoginResponse,
  MarkAllReadResponse,
  NotificationList,
  PasswordResetConfirm,
  PasswordResetRequest,
  PayoutAddressRequest,
  PayoutSetting,
  PayoutThresholdRequest,
  PoolPorts,
  PoolStats,
  RegisterRequest,
  RegisterResponse,
  Settings,
  TotpCodeRequest,
  TotpSetupResponse as TwoFactorSetupResponse,
  User,
  WatchDashboard,
  WatchLink,
  WatchLinkList,
  WatchPayoutPage,
  WatchView,
  WatchWorkers,
} from '@manjam/contract';

/** Compile-time proof that a local list names exactly the contract's members. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGES_MATCH: Same<Language, ContractLanguage> = true;

/** The coins an account may name: the contract's list, from the protocol's coin table. */
export const COINS = ACCOUNT_COINS;
export type Coin = AccountCoin;

/** The network the pool runs each of its coins on (from /api/pool/stats), when known. */
export type PoolNetworks = Partial<Record<PoolCoin, Network>>;

/** An algorithm id of the API (the contract's one list, ALGORITHMS). */
export type Algorithm = AlgorithmId;

export const THEMES = ['dark', 'light', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const THEMES_MATCH: Same<Theme, ContractSettings['theme']> = true;

/** The pages a watcher link can show. */
export const WATCH_PAGES = ['dashboard', 'workers', 'payouts'] as const;
export type WatchPage = (typeof WATCH_PAGES)[number];
export const WATCH_PAGES_MATCH: Same<WatchPage, ContractWatchPage> = true;

export type PoolAlgorithmStats = PoolStats['algorithms'][number];

/** The editable settings that PUT /api/settings accepts. */
export type SettingsUpdate = Partial<
  Pick<
    ContractSettings,
    | 'darkMode'
    | 'showBalance'
    | 'showHashrate'
    | 'theme'
    | 'language'
    | 'notifications'
    | 'emailAlerts'
    | 'autoLogout'
    | 'timeZone'
  >
>;

export interface ChatHistoryItem {
  role: 'user' | 'assistant';
  content: string;
}
