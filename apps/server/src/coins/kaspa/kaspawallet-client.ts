// The kaspawallet daemon (`kaspawallet start-daemon`) through its gRPC API: balance, addresses,
// Send. One unary call per method, each with a deadline. Errors are RpcError (rpc/json-rpc.ts):
// 'transport' when the daemon cannot be reached, 'timeout' past the deadline, 'rpc' with the
// daemon's own words otherwise (e.g. "wallet daemon is not synced yet", too little balance).
// Amounts are sompi as bigint.
import { Client, credentials, status, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { RpcError } from '../../rpc/json-rpc.js';
import { loadMethod } from './grpc-proto.js';

const SERVICE = 'kaspawalletd.kaspawalletd';
const WALLET_METHODS = ['GetBalance', 'ShowAddresses', 'NewAddress', 'Send', 'GetVersion'] as const;
type WalletMethod = (typeof WALLET_METHODS)[number];

const METHODS = new Map<WalletMethod, MethodDefinition<object, object>>(
  WALLET_METHODS.map((name) => [name, loadMethod('kaspawalletd.proto', SERVICE, name)]),
);

export const KASPAWALLET_DEFAULT_TIMEOUT_MS = 30_000;

export interface KaspaWalletBalance {
  /** Spendable now. */
  available: bigint;
  /** Coinbase outputs not yet mature for the daemon. */
  pending: bigint;
  byAddress: { address: string; available: bigint; pending: bigint }[];
}

/** How the daemon picks the fee (absent: its own estimate, capped at 1 KAS). */
export type KaspaFeePolicy = { maxFeeRate: number } | { exactFeeRate: number } | { maxFee: bigint };

export interface KaspaSendRequest {
  toAddress: string;
  amount: bigint;
  password: string;
  /** Send everything the wallet holds (amount is then ignored). */
  sendAll?: boolean;
  feePolicy?: KaspaFeePolicy;
}

interface WireBalance {
  available: string;
  pending: string;
  addressBalances: { address: string; available: string; pending: string }[];
}

function errorKind(code: status): 'transport' | 'timeout' | 'rpc' {
  if (code === status.UNAVAILABLE || code === status.CANCELLED) return 'transport';
  if (code === status.DEADLINE_EXCEEDED) return 'timeout';
  return 'rpc';
}

export class KaspaWalletClient {
  readonly address: string;
  private readonly grpc: Client;
  private readonly timeoutMs: number;

  constructor(address: string, timeoutMs = KASPAWALLET_DEFAULT_TIMEOUT_MS) {
    this.address = address;
    this.timeoutMs = timeoutMs;
    this.grpc = new Client(address, credentials.createInsecure());
  }

  async getBalance(): Promise<KaspaWalletBalance> {
    const wire = await this.unary<WireBalance>('GetBalance', {});
    return {
      available: BigInt(wire.available),
      pending: BigInt(wire.pending),
      byAddress: wire.addressBalances.map((entry) => ({
        address: entry.address,
        available: BigInt(entry.available),
        pending: BigInt(entry.pending),
      })),
    };
  }

  async showAddresses(): Promise<string[]> {
    return (await this.unary<{ address: string[] }>('ShowAddresses', {})).address;
  }

  async newAddress(): Promise<string> {
    return (await this.unary<{ address: string }>('NewAddress', {})).address;
  }

  async getVersion(): Promise<string> {
    return (await this.unary<{ version: string }>('GetVersion', {})).version;
  }

  /** Signs and broadcasts; resolves with the ids of the transactions it took (one or more). */
  async send(request: KaspaSendRequest, timeoutMs?: number): Promise<string[]> {
    const feePolicy =
      request.feePolicy && 'maxFee' in request.feePolicy
        ? { maxFee: request.feePolicy.maxFee.toString() }
        : request.feePolicy;
    const body = {
      toAddress: request.toAddress,
      amount: request.amount.toString(),
      password: request.password,
      isSendAll: request.sendAll ?? false,
      ...(feePolicy ? { feePolicy } : {}),
    };
    return (await this.unary<{ txIDs: string[] }>('Send', body, timeoutMs)).txIDs;
  }

  close(): void {
    this.grpc.close();
  }

  private unary<T>(name: WalletMethod, body: object, timeoutMs = this.timeoutMs): Promise<T> {
    const method = METHODS.get(name);
    if (!method) return Promise.reject(new Error(`unknown kaspawalletd method ${name}`));
    return new Promise<T>((resolve, reject) => {
      this.grpc.makeUnaryRequest<object, object>(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        body,
        { deadline: Date.now() + timeoutMs },
        (err: ServiceError | null, response?: object) => {
          if (err) reject(new RpcError(errorKind(err.code), name, err.details || err.message));
          // Decoded by our own .proto: the shape the caller names.
          else resolve(response as T);
        },
      );
    });
  }
}
