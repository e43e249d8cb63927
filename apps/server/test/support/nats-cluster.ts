// Test support: a real three-node NATS JetStream cluster on 127.0.0.1 (three `nats-server`
// processes from Debian's nats-server package, free ports, temporary store directories), with
// kill and restart of one server. The machine's own NATS on 4222 is never touched.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { startTcpRelay, type TcpRelay } from './nats-link.js';
import { startWatched, waitUntil, type WatchedProcess } from './processes.js';

/** Debian's nats-server (scripts/install-system-deps.mjs installs it). */
export const NATS_SERVER_BIN = '/usr/sbin/nats-server';

export interface NatsServerNode {
  name: string;
  clientPort: number;
  clusterPort: number;
  /** The server's leafnodes port (with a JetStream domain set); leaf servers reach it through leafLink. */
  leafPort: number;
  /**
   * The relay leaf servers connect through (the port the server advertises to them), standing
   * for the network link between the regions and this server: cut() and restore() it.
   */
  leafLink: TcpRelay | undefined;
  url: string;
  /** The running process; undefined while the node is stopped. */
  process: WatchedProcess | undefined;
}

export interface NatsCluster {
  nodes: NatsServerNode[];
  /** Every node's client URL, comma separated (what a client's `servers` takes). */
  servers: string[];
  /** SIGKILLs node `index` (its store directory is kept for a restart). */
  kill(index: number): Promise<void>;
  /** Starts node `index` again on the same ports and store. */
  restart(index: number): Promise<void>;
  /** Stops every node and removes the store directories. */
  stop(): Promise<void>;
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface NatsClusterOptions {
  size?: number;
  /** The cluster's JetStream domain: set, the servers also take leaf servers on their `leafPort`. */
  domain?: string;
}

function serverConfig(
  node: NatsServerNode,
  all: NatsServerNode[],
  storeDir: string,
  domain: string | undefined,
): string {
  const routes = all
    .filter((n) => n !== node)
    .map((n) => `nats-route://127.0.0.1:${n.clusterPort}`)
    .join(', ');
  return [
    `server_name: ${node.name}`,
    `listen: 127.0.0.1:${node.clientPort}`,
    domain === undefined
      ? `jetstream { store_dir: "${storeDir}" }`
      : `jetstream { store_dir: "${storeDir}", domain: ${domain} }`,
    `cluster { name: manjam-test, listen: 127.0.0.1:${node.clusterPort}, routes: [${routes}] }`,
    // A leaf learns only the relay's address (advertise), not the other servers' (no_advertise),
    // so cutting the relay cuts it off.
    ...(domain === undefined || !node.leafLink
      ? []
      : [
          `leafnodes { listen: 127.0.0.1:${node.leafPort}, advertise: "127.0.0.1:${node.leafLink.port}", no_advertise: true }`,
        ]),
    '',
  ].join('\n');
}

/**
 * Starts three clustered JetStream servers and resolves once the cluster has a JetStream meta
 * leader (a stream with 3 replicas can be created).
 */
export async function startNatsCluster(options: NatsClusterOptions = {}): Promise<NatsCluster> {
  const size = options.size ?? 3;
  const root = mkdtempSync(join(tmpdir(), 'manjam-nats-'));
  const nodes: NatsServerNode[] = [];
  for (let i = 0; i < size; i++) {
    const clientPort = await freePort();
    const clusterPort = await freePort();
    const leafPort = await freePort();
    nodes.push({
      name: `n${i + 1}`,
      clientPort,
      clusterPort,
      leafPort,
      leafLink: options.domain === undefined ? undefined : await startTcpRelay(leafPort),
      url: `nats://127.0.0.1:${clientPort}`,
      process: undefined,
    });
  }
  const confPath = (node: NatsServerNode) => join(root, `${node.name}.conf`);
  for (const node of nodes)
    writeFileSync(confPath(node), serverConfig(node, nodes, join(root, node.name), options.domain));

  const launch = async (node: NatsServerNode): Promise<void> => {
    const watched = startWatched(NATS_SERVER_BIN, ['-c', confPath(node)], {});
    node.process = watched;
    await watched.waitFor(/Server is ready/, 20_000);
  };
  const halt = async (node: NatsServerNode, signal: NodeJS.Signals): Promise<void> => {
    const running = node.process;
    node.process = undefined;
    if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill(signal);
    await running.exited;
  };

  try {
    await Promise.all(nodes.map(launch));
    await waitForMetaLeader(nodes.map((n) => n.url));
  } catch (error) {
    await Promise.all(nodes.map((n) => halt(n, 'SIGKILL')));
    await Promise.all(nodes.map((n) => n.leafLink?.stop() ?? Promise.resolve()));
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const at = (index: number): NatsServerNode => {
    const node = nodes[index];
    if (!node) throw new Error(`no NATS node ${index}`);
    return node;
  };
  return {
    nodes,
    servers: nodes.map((n) => n.url),
    kill: (index) => halt(at(index), 'SIGKILL'),
    restart: async (index) => {
      const node = at(index);
      if (node.process) throw new Error(`NATS node ${node.name} is running`);
      await launch(node);
    },
    stop: async () => {
      await Promise.all(nodes.map((n) => halt(n, 'SIGTERM')));
      await Promise.all(nodes.map((n) => n.leafLink?.stop() ?? Promise.resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Waits until JetStream answers account info (the cluster elected its meta leader). */
async function waitForMetaLeader(servers: string[]): Promise<void> {
  let nc: NatsConnection | undefined;
  try {
    nc = await connect({ servers, maxReconnectAttempts: -1 });
    const client = nc;
    await waitUntil(
      async () => {
        try {
          // jetstreamManager() asks for the account info: it answers once a meta leader exists.
          await client.jetstreamManager({ timeout: 2_000 });
          return true;
        } catch {
          return false;
        }
      },
      30_000,
      'JetStream cluster meta leader',
    );
  } finally {
    await nc?.close();
  }
}
