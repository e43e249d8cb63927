import type { TFunction } from 'i18next';
import { ApiError } from './api';

/** The text to show for a failed call: the server's (already translated) message, else a fallback. */
export function errorMessage(error: unknown, t: TFunction, fallback?: string): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return t('errors.network');
    if (error.message) return error.message;
  }
  return fallback ?? t('errors.generic');
}
