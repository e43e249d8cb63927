// KaspadClient against a scripted gRPC server on 127.0.0.1 that speaks the same .proto: how
// answers are matched to requests, timeouts, node errors, dropped streams and resubscription.
import { Server, ServerCredentials, type ServerDuplexStream, type ServiceDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../rpc/json-rpc.js';
import { PROTO_LOAD_OPTIONS, protoPath } from './grpc-proto.js';
import { KaspadClient } from './kaspad-client.js';
import type { KaspadEnvelope } from './kaspad-wire.js';

type NodeStream = ServerDuplexStream<KaspadEnvelope, object>;
type Script = (request: KaspadEnvelope, stream: NodeStream, streamIndex: number) => void;

const definition = loadSync(protoPath('kaspad.proto'), PROTO_LOAD_OPTIONS)['protowire.RPC'];

const INFO = { p2pId: 'p', mempoolSize: '0', serverVersion: '0.12.22', isUtxoIndexed: true, isSynced: false };
const DAG = { networkName: 'kaspa-simnet', blockCount: '7', virtualDaaScore: '9007199254740993' };

interface FakeNode {
  address: string;
  streams: NodeStream[];
  stop(): Promise<void>;
}

async function startFakeNode(script: Script): Promise<FakeNode> {
  const server = new Server();
  const streams: NodeStream[] = [];
  // The same service definition our client loads: the server speaks exactly our .proto.
  server.addService(definition as ServiceDefinition, {
    MessageStream: (stream: NodeStream) => {
      const index = streams.push(stream) - 1;
      stream.on('data', (request: KaspadEnvelope) => script(request, stream, index));
      stream.on('error', () => undefined);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    streams,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(script: Script, timeoutMs = 2_000): Promise<{ node: FakeNode; client: KaspadClient }> {
  const node = await startFakeNode(script);
  const client = new KaspadClient({ address: node.address, timeoutMs, reconnectMinMs: 50 });
  cleanups.push(
    () => node.stop(),
    () => client.close(),
  );
  return { node, client };
}

describe('KaspadClient on one gRPC message stream', () => {
  it('gives each answer to the oldest waiting request of its type, in whatever order the types come back', async () => {
    const held: NodeStream[] = [];
    const { client } = await setUp((request, stream) => {
      if (request.payload === 'getBlockDagInfoRequest') held.push(stream);
      if (request.payload === 'getInfoRequest') {
        // Both DAG answers after the info answer: the other type overtakes them.
        stream.write({ getInfoResponse: INFO });
        for (const waiting of held.splice(0)) {
          waiting.write({ getBlockDagInfoResponse: { ...DAG, blockCount: '1' } });
          waiting.write({ getBlockDagInfoResponse: { ...DAG, blockCount: '2' } });
        }
      }
    });
    const first = client.getBlockDagInfo();
    await delay(20);
    const second = client.call('getBlockDagInfoRequest', {});
    await delay(20);
    const info = await client.getInfo();
    expect(info.serverVersion).toBe('0.12.22');
    expect((await first).blockCount).toBe('1');
    expect((await second).blockCount).toBe('2');
    // u64 fields arrive exactly, beyond 2^53.
    expect(BigInt((await first).virtualDaaScore)).toBe(9007199254740993n);
  });

  it('drops the late answer of a timed-out request instead of giving it to the next request', async () => {
    let asked = 0;
    const { client } = await setUp((request, stream) => {
      if (request.payload !== 'getBlockDagInfoRequest') return;
      asked++;
      const blockCount = String(asked);
      setTimeout(
        () => stream.write({ getBlockDagInfoResponse: { ...DAG, blockCount } }),
        asked === 1 ? 300 : 0,
      );
    }, 100);
    await expect(client.getBlockDagInfo()).rejects.toMatchObject({ kind: 'timeout' });
    await delay(300); // the first answer arrives now, late
    const next = await client.getBlockDagInfo();
    expect(next.blockCount).toBe('2');
  });

  it("turns the node's error into an RpcError of kind rpc, and a refused block into a result", async () => {
    const { client } = await setUp((request, stream) => {
      if (request.payload === 'getBalanceByAddressRequest') {
        stream.write({
          getBalanceByAddressResponse: {
            error: { message: 'Method unavailable when kaspad is run without --utxoindex' },
          },
        });
      }
      if (request.payload === 'submitBlockRequest') {
        stream.write({
          submitBlockResponse: {
            rejectReason: 'BLOCK_INVALID',
            error: { message: 'Block rejected. Reason: bad merkle root' },
          },
        });
      }
    });
    const refused = await client.getBalanceByAddress('kaspasim:qq').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ kind: 'rpc', method: 'getBalanceByAddressRequest' });
    expect(String(refused)).toContain('--utxoindex');
    const result = await client.submitBlock({ header: null, transactions: [], verboseData: null });
    expect(result).toEqual({
      accepted: false,
      rejectReason: 'BLOCK_INVALID',
      message: 'Block rejected. Reason: bad merkle root',
    });
  });

  it('fails waiting requests when the stream drops, then reconnects, subscribes again and calls the listener', async () => {
    const { node, client } = await setUp((request, stream, index) => {
      if (request.payload === 'notifyNewBlockTemplateRequest') {
        stream.write({ notifyNewBlockTemplateResponse: {} });
        if (index === 1) setTimeout(() => stream.write({ newBlockTemplateNotification: {} }), 20);
      }
      // The first stream dies with a request unanswered.
      if (request.payload === 'getInfoRequest' && index === 0) setTimeout(() => stream.end(), 20);
    });
    let calls = 0;
    await client.onNewBlockTemplate(() => calls++);
    await expect(client.getInfo()).rejects.toMatchObject({ kind: 'transport' });
    // Reconnected: one call for the reconnect itself, one for the node's notification.
    await expect.poll(() => calls, { timeout: 2_000 }).toBe(2);
    expect(node.streams).toHaveLength(2);
  });

  it('refuses requests after close() without touching the network', async () => {
    const { node, client } = await setUp(() => undefined);
    client.close();
    await expect(client.getInfo()).rejects.toMatchObject({ kind: 'transport' });
    expect(node.streams).toHaveLength(0);
  });
});
