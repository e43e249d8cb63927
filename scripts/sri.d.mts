// Types of scripts/sri.mjs for the TypeScript callers (tests, bench).
export declare const SRI_TRANSLATOR_CRATE: string;
export declare const SRI_TRANSLATOR_VERSION: string;
export declare const SRI_TRANSLATOR_BINARY: string;

export type EnsureTranslatorResult =
  { ok: true; binary: string; built: boolean; ms: number } | { ok: false; reason: string };

export declare function findCargo(): string | undefined;
export declare function ensureTranslator(options?: { quiet?: boolean }): Promise<EnsureTranslatorResult>;
