import type { ApiErrorBody } from './api-types';
import { getAuthSnapshot, signOut } from './auth';
import { readStorage, STORAGE_KEYS } from './storage';

/** Base URL of the API; empty means same origin (the dev server proxies /api). */
const API_BASE: string = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

/** Error codes the web itself produces (the server's codes come from the contract). */
export const CLIENT_ERROR_CODES = { network: 'network-error', badResponse: 'bad-response' } as const;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  get isNetworkError(): boolean {
    return this.code === CLIENT_ERROR_CODES.network;
  }
}

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

export function parseErrorBody(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) {
    const { code, message, fields } = body.error;
    return new ApiError(status, code, typeof message === 'string' ? message : '', fields ?? {});
  }
  return new ApiError(status, CLIENT_ERROR_CODES.badResponse, '');
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  headers.set('Accept-Language', readStorage(STORAGE_KEYS.language) === 'ar' ? 'ar' : 'en');
  const token = readStorage(STORAGE_KEYS.token);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (hasBody) headers.set('Content-Type', 'application/json');
  return headers;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Calls the Manjam API. Resolves with the parsed JSON body (undefined for 204), rejects with
 * ApiError: server errors keep {status, code, message, fields}; a failed network call has
 * status 0 and code 'network-error'. A 401 while signed in clears token and user.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers: buildHeaders(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, CLIENT_ERROR_CODES.network, '');
  }
  const parsed = await readJson(response);
  if (!response.ok) {
    const error = parseErrorBody(response.status, parsed);
    // Auto Logout ended the session (code session-idle): /login says why instead of a silent redirect.
    if (response.status === 401 && getAuthSnapshot().isSignedIn)
      signOut(error.code === 'session-idle' ? 'idle' : undefined);
    throw error;
  }
  return parsed as T;
}
