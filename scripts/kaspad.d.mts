// Types of scripts/kaspad.mjs for the TypeScript callers (tests, dev chain, bench).
export declare const KASPAD_MODULE: string;
export declare const KASPAD_VERSION: string;
export declare const KASPA_TOOLS: readonly ['kaspad', 'kaspawallet', 'kaspaminer'];
export declare const KASPA_BIN_DIR: string;

export type KaspaBinaries = Record<'kaspad' | 'kaspawallet' | 'kaspaminer', string>;

export type EnsureKaspadResult =
  | { ok: true; binDir: string; binaries: KaspaBinaries; built: boolean; ms: number }
  | { ok: false; reason: string };

export declare function findGo(): string | undefined;
export declare function ensureKaspad(options?: { quiet?: boolean }): Promise<EnsureKaspadResult>;
