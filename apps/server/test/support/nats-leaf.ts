// Test support: a region's own JetStream server, a `nats-server` leaf node with its own JetStream
// domain, connected to one server of a core cluster (startNatsCluster({ domain })) through that
// server's link relay, which the test cuts and restores the way a region's link drops and returns.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NATS_SERVER_BIN, type NatsServerNode } from './nats-cluster.js';
import type { TcpRelay } from './nats-link.js';
import { startWatched, type WatchedProcess } from './processes.js';

export interface NatsLeaf {
  domain: string;
  /** The leaf server's client URL (what the region's Stratum node connects to). */
  url: string;
  /** The link to the core (the hub server's link relay): cut() and restore() it. */
  link: TcpRelay;
  /** The server process now (a new one after restart()). */
  readonly process: WatchedProcess;
  /** SIGKILLs the server (its store directory is kept for a restart). */
  kill(): Promise<void>;
  /** Starts the server again on the same port and store; resolves once its link to the core is up. */
  restart(): Promise<void>;
  /** Stops the server and removes the store directory. */
  stop(): Promise<void>;
}

/**
 * Starts a JetStream leaf server of domain `domain` connected to `hub` (a server of a cluster
 * started with a domain) through the hub's link relay; resolves once the leaf connection is up.
 */
export async function startNatsLeaf(domain: string, hub: NatsServerNode): Promise<NatsLeaf> {
  const link = hub.leafLink;
  if (!link)
    throw new Error(`NATS server ${hub.name} takes no leaf servers (start the cluster with a domain)`);
  const root = mkdtempSync(join(tmpdir(), `manjam-leaf-${domain}-`));
  const clientPort = await freePort();
  const confPath = join(root, 'leaf.conf');
  writeFileSync(
    confPath,
    [
      `server_name: leaf-${domain}`,
      `listen: 127.0.0.1:${clientPort}`,
      `jetstream { store_dir: "${join(root, 'store')}", domain: ${domain} }`,
      `leafnodes { reconnect: 1, remotes: [ { url: "nats-leaf://127.0.0.1:${link.port}" } ] }`,
      '',
    ].join('\n'),
  );
  let watched = startWatched(NATS_SERVER_BIN, ['-c', confPath], {});
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    if (watched.child.exitCode === null && watched.child.signalCode === null) {
      watched.child.kill(signal);
      await watched.exited;
    }
  };
  const ready = async (): Promise<void> => {
    await watched.waitFor(/Server is ready/, 20_000);
    await watched.waitFor(/Leafnode connection created/, 20_000);
  };
  const stop = async (): Promise<void> => {
    await halt('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await ready();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    domain,
    url: `nats://127.0.0.1:${clientPort}`,
    link,
    get process() {
      return watched;
    },
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGKILL');
      watched = startWatched(NATS_SERVER_BIN, ['-c', confPath], {});
      await ready();
    },
    stop,
  };
}
