import type { LookupMiner } from '@manjam/contract';
import { z } from 'zod';
import { ServiceError } from '../errors.js';

/** The parts of the rig-management API (Hive OS v2 shape) that Manjam reads; everything else is ignored. */
const farmSchema = z.object({ id: z.union([z.number(), z.string()]), name: z.string().optional() });
const rigWorkerSchema = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string().default(''),
  stats: z
    .object({ online: z.boolean().optional(), offline_since: z.number().nullish() })
    .partial()
    .optional(),
  offline_since: z.number().nullish(),
  /** Hive reports hashrates in kH/s. */
  hashrates: z
    .array(
      z.object({ algo: z.string().optional(), coin: z.string().optional(), hash: z.number().optional() }),
    )
    .optional(),
  flight_sheet: z
    .object({
      items: z
        .array(
          z.object({
            coin: z.string().optional(),
            wallet_address: z.string().optional(),
            wal: z.string().optional(),
            wallet: z.string().optional(),
          }),
        )
        .optional(),
    })
    .nullish(),
  gpu_stats: z
    .array(
      z.object({ name: z.string().optional(), hash: z.number().optional(), temp: z.number().optional() }),
    )
    .optional(),
});
const listSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(z.unknown()) }).transform((v) =>
    v.data.flatMap((d) => {
      const parsed = item.safeParse(d);
      return parsed.success ? [parsed.data] : [];
    }),
  );

export type RigWorker = z.infer<typeof rigWorkerSchema>;

export interface RigClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** At most this many farms are read per search. */
  maxFarms?: number;
}

/** Reads farms and their workers with the user's bearer token; a timeout bounds every call. */
export class RigClient {
  constructor(private readonly options: RigClientOptions) {}

  async workersForAddress(token: string, address: string): Promise<RigWorker[]> {
    const farms = await this.get(token, '/farms', listSchema(farmSchema));
    const lists = await Promise.all(
      farms
        .slice(0, this.options.maxFarms ?? 20)
        .map((farm) =>
          this.get(
            token,
            `/farms/${encodeURIComponent(String(farm.id))}/workers`,
            listSchema(rigWorkerSchema),
          ),
        ),
    );
    const wanted = address.toLowerCase();
    return lists
      .flat()
      .filter((w) =>
        (w.flight_sheet?.items ?? []).some(
          (item) => (item.wallet_address ?? item.wal ?? item.wallet ?? '').toLowerCase() === wanted,
        ),
      );
  }

  private async get<T>(token: string, path: string, schema: z.ZodType<T>): Promise<T> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      throw new ServiceError(502, 'rig-unavailable', 'rigUnavailable');
    }
    if (!response.ok) throw new ServiceError(502, 'rig-unavailable', 'rigUnavailable');
    const parsed = schema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ServiceError(502, 'rig-unavailable', 'rigUnavailable');
    return parsed.data;
  }
}

/** The seed's mapping: status Active/Inactive, hashrate, algorithm, lastSeen (now or offline time), GPUs. */
export function rigWorkerToMiner(w: RigWorker, nowMs: number): LookupMiner {
  const online = w.stats?.online ?? false;
  const offlineSince = w.stats?.offline_since ?? w.offline_since ?? null;
  const first = w.hashrates?.[0];
  const coin = w.flight_sheet?.items?.[0]?.coin ?? first?.coin ?? null;
  return {
    id: `hive-${String(w.id)}`,
    name: w.name,
    algorithm: first?.algo ?? 'unknown',
    status: online ? 'active' : 'inactive',
    hashrate: (w.hashrates ?? []).reduce((sum, h) => sum + (h.hash ?? 0) * 1000, 0),
    shares: { accepted: 0, rejected: 0, stale: 0 },
    earnings: { daily: '0', weekly: '0', monthly: '0' },
    coin,
    lastSeen: online
      ? new Date(nowMs).toISOString()
      : offlineSince
        ? new Date(offlineSince * 1000).toISOString()
        : null,
    source: 'hive',
    gpus: (w.gpu_stats ?? []).map((g) => ({
      name: g.name ?? 'GPU',
      hashrate: (g.hash ?? 0) * 1000,
      temperature: g.temp ?? null,
    })),
  };
}
