// The process's file-descriptor budget. Every socket (HTTP, Stratum, node RPC, PostgreSQL) and
// every open file takes one descriptor from the same RLIMIT_NOFILE; once they are gone, accept()
// and connect() fail with EMFILE on every port at once. So the limit is split: a reserve for the
// node clients, the database, the share journal, logs and child processes, a cap for HTTP, and a
// cap for each Stratum port; each listener closes connections past its cap as they are accepted.
//
// Node raises its soft limit to the hard one itself at start (PlatformInit in node.cc), so the
// soft limit read here is already the most the process may hold; an operator raises it with the
// service manager (systemd `LimitNOFILE=`, docs/OPERATIONS.md).
import { readFileSync } from 'node:fs';
import type { Config } from './schema.js';

export interface OpenFilesLimit {
  soft: number;
  hard: number;
}

/** Descriptors kept for everything that is not a client connection: this share of the limit... */
export const FD_RESERVE_SHARE = 0.1;
/** ...and at least this many. */
export const FD_RESERVE_MIN = 512;
/** HTTP's default share of what the reserve leaves (the Stratum ports split the rest). */
export const FD_HTTP_SHARE = 0.25;
/** Assumed when the limit cannot be read (no /proc): a common default hard limit. */
export const FD_LIMIT_ASSUMED = 4_096;

export interface ConnectionPlan {
  /** The open-files limit the plan splits (`assumed` when it could not be read). */
  limit: number;
  source: 'proc' | 'assumed';
  /** Descriptors left for node clients, the database, files and children. */
  reserve: number;
  http: { maxConnections: number; maxConnectionsPerAddress: number };
  stratum: { ports: number; maxConnectionsPerPort: number };
  /** Every cap plus the reserve: at most `limit` when the plan fits. */
  committed: number;
  fits: boolean;
}

/** This process's RLIMIT_NOFILE from /proc/self/limits (Linux); null elsewhere. */
export function readOpenFilesLimit(path = '/proc/self/limits'): OpenFilesLimit | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(text);
  if (!match) return null;
  const value = (field: string | undefined) =>
    field === 'unlimited' || field === undefined ? Number.MAX_SAFE_INTEGER : Number(field);
  return { soft: value(match[1]), hard: value(match[2]) };
}

/**
 * The caps this process runs with: the configured ones where set, else its share of the limit.
 * Every listener derives its cap from this one function, so the parts never disagree; a
 * process of one role budgets the others' shares too (set the caps to give them away).
 */
export function connectionPlan(
  config: Config,
  openFiles: OpenFilesLimit | null = readOpenFilesLimit(),
): ConnectionPlan {
  const limit = openFiles?.soft ?? FD_LIMIT_ASSUMED;
  const reserve = Math.max(FD_RESERVE_MIN, Math.floor(limit * FD_RESERVE_SHARE));
  const available = Math.max(0, limit - reserve);
  const httpMax = config.http.maxConnections ?? Math.max(1, Math.floor(available * FD_HTTP_SHARE));
  const ports = config.stratum.ports.length;
  const perPort =
    config.stratum.maxConnectionsPerPort ??
    Math.max(1, Math.floor(Math.max(0, available - httpMax) / Math.max(1, ports)));
  const committed = reserve + httpMax + perPort * ports;
  return {
    limit,
    source: openFiles ? 'proc' : 'assumed',
    reserve,
    http: {
      maxConnections: httpMax,
      maxConnectionsPerAddress: Math.min(config.http.maxConnectionsPerAddress, httpMax),
    },
    stratum: { ports, maxConnectionsPerPort: perPort },
    committed,
    fits: committed <= limit,
  };
}
