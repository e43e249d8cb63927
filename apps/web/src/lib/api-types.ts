// Local mirror of the agreed HTTP API (/work/notes/api-contract.md) until the zod schemas
// in @manjam/contract exist. Swap these for `import type ... from '@manjam/contract'` then.

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const COINS = ['BTC', 'LTC', 'DOGE', 'KDA', 'KAS'] as const;
export type Coin = (typeof COINS)[number];

export const ALGORITHMS = ['sha256', 'scrypt', 'ethash', 'kadena', 'kaspa', 'equihash', 'octopus', 'filecoin', 'randomx'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const THEMES = ['dark', 'light', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export const PAYOUT_THRESHOLDS = ['0.001', '0.01', '0.1'] as const;
export type PayoutThreshold = (typeof PAYOUT_THRESHOLDS)[number];

export interface User {
  id: string;
  username: string;
  email: string;
  walletAddress: string | null;
  preferredCoin: Coin;
  twoFactorEnabled: boolean;
  createdAt: string;
  activeWorkers: number;
  hashrate: number;
  /** Integer base units of preferredCoin, as a decimal string. */
  balance: string;
}

export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export interface RegisterRequest {
  username: string;
  email: string;
  password: string;
  walletAddress?: string;
  preferredCoin: Coin;
}
export interface RegisterResponse { user: User }

export interface LoginRequest { email: string; password: string; totp?: string }
export interface LoginResponse { token: string; user: User }

export interface TwoFactorSetupResponse { secret: string; otpauthUrl: string; qrDataUrl: string }
export interface ChangePasswordRequest { currentPassword: string; newPassword: string }
export interface ChangeEmailRequest { password: string; newEmail: string }

export interface Settings {
  darkMode: boolean;
  showBalance: boolean;
  showHashrate: boolean;
  theme: Theme;
  language: Language;
  notifications: boolean;
  emailAlerts: boolean;
  twoFactorAuth: boolean;
  autoLogout: boolean;
  payoutThreshold: PayoutThreshold;
  payoutAddress: string | null;
  pendingPayoutAddress: string | null;
  pendingPayoutAddressEffectiveAt: string | null;
}
export type SettingsUpdate = Partial<Omit<Settings, 'twoFactorAuth' | 'payoutAddress' | 'pendingPayoutAddress' | 'pendingPayoutAddressEffectiveAt'>>;
export interface PayoutAddressRequest { address: string; coin: Coin; totp?: string }

export interface PoolAlgorithmStats {
  algorithm: string;
  coin: string;
  live: boolean;
  port: number;
  hashrate: number;
  miners: number;
  workers: number;
  networkHeight: number;
  networkDifficulty: number;
  /** Percent, e.g. 1.0 */
  fee: number;
  /** Hours */
  payoutInterval: number;
  scheme: string;
}
export interface PoolStats { algorithms: PoolAlgorithmStats[]; host: string }

export interface PoolPort { algorithm: string; name: string; port: number; live: boolean }
export interface PoolPorts { host: string; ports: PoolPort[] }

export const BLOCK_STATUSES = ['pending', 'confirmed', 'orphaned'] as const;
export interface Block {
  height: number;
  hash: string;
  coin: string;
  status: (typeof BLOCK_STATUSES)[number];
  confirmations: number;
  reward: string;
  finder: string;
  foundAt: string;
  effort: number;
}
export interface Page<T> { items: T[]; page: number; pageSize: number; total: number }

export interface ChatHistoryItem { role: 'user' | 'assistant'; content: string }
export interface AssistantRequest { message: string; language: Language; history: ChatHistoryItem[] }
export interface AssistantResponse { reply: string }
