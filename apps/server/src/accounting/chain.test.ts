import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/json-rpc.js';
import { isInsufficientFunds, isNodeRejection } from './chain.js';

describe('reading a wallet refusal', () => {
  it("reads the kaspawallet daemon's refusals for too little balance as insufficient funds", () => {
    // cmd/kaspawallet/daemon/server: create_unsigned_transaction.go and split_transaction.go.
    const send = new RpcError(
      'rpc',
      'Send',
      'Insufficient funds for send: 25000.000000 required, while only 24180.441230 available',
    );
    const merge = new RpcError('rpc', 'Send', 'Insufficient funds for merge transaction');
    expect([isInsufficientFunds(send), isInsufficientFunds(merge)]).toEqual([true, true]);
  });

  it('keeps a lost answer and a refusal for another reason apart from insufficient funds', () => {
    const lost = new RpcError('timeout', 'Send', 'Insufficient funds for send (a timeout never says so)');
    const other = new RpcError('rpc', 'Send', 'wallet daemon is not synced yet');
    expect([isNodeRejection(lost), isInsufficientFunds(lost)]).toEqual([false, false]);
    expect([isNodeRejection(other), isInsufficientFunds(other)]).toEqual([true, false]);
  });

  it('reads Core, bcoin and monero-wallet-rpc refusals as before', () => {
    const core = new RpcError('rpc', 'sendmany', 'Insufficient funds', -6);
    const bcoin = new RpcError('rpc', 'sendmany', 'Not enough funds.');
    const monero = new RpcError('rpc', 'transfer', 'not enough unlocked money', -37);
    expect([core, bcoin, monero].map(isInsufficientFunds)).toEqual([true, true, true]);
  });
});
