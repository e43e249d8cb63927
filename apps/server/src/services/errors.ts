import type { ErrorCode, Language, MessageKey } from '@manjam/contract';
import { MESSAGES, translateMessage } from '@manjam/contract/messages';
import type { z } from 'zod';

/** An error a client should see: HTTP status, stable code, message key, optional per-field messages. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(MESSAGES[messageKey]);
    this.name = 'ServiceError';
  }
}

export const notFound = (key: MessageKey = 'notFound', code: ErrorCode = 'not-found') =>
  new ServiceError(404, code, key);
export const unauthorized = () => new ServiceError(401, 'unauthorized', 'unauthorized');
/** A session Auto Logout has just ended (idle past its limit): 401 with its own code, so the app says why. */
export const sessionIdle = () => new ServiceError(401, 'session-idle', 'sessionIdle');

/** Validation failure with one English message per field (translated when sent). */
export function validationError(fields: Record<string, string>): ServiceError {
  return new ServiceError(400, 'validation-failed', 'validationFailed', fields);
}

/** The first message of each failing field; a root-level problem goes under `_`. */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export interface ErrorPayload {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export function errorPayload(error: ServiceError, language: Language): ErrorPayload {
  const fields = error.fields
    ? Object.fromEntries(
        Object.entries(error.fields).map(([key, message]) => [key, translateMessage(message, language)]),
      )
    : undefined;
  return {
    error: {
      code: error.code,
      message: translateMessage(error.message, language),
      ...(fields ? { fields } : {}),
    },
  };
}
