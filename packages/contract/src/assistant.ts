import { z } from 'zod';
import { isoTimeSchema } from './common.js';
import { LANGUAGES } from './tables.js';
import { MESSAGES } from './messages.js';

export const CHAT_ROLES = ['user', 'assistant'] as const;

export const assistantRequestSchema = z.object({
  message: z
    .string({ error: MESSAGES.expectedText })
    .trim()
    .min(1, MESSAGES.invalidValue)
    .max(2000, MESSAGES.textTooLong),
  language: z.enum(LANGUAGES, { error: MESSAGES.invalidValue }).default('en'),
  history: z
    .array(z.object({ role: z.enum(CHAT_ROLES), content: z.string().max(4000, MESSAGES.textTooLong) }))
    .max(20)
    .default([]),
});
export type AssistantRequest = z.input<typeof assistantRequestSchema>;
export const assistantResponseSchema = z.object({ reply: z.string() });
export type AssistantResponse = z.infer<typeof assistantResponseSchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: isoTimeSchema,
  read: z.boolean(),
  /** How many events the notification tells (more than 1 for a batch, e.g. blocks found in one period). */
  count: z.number().int().positive(),
});
export const markAllReadResponseSchema = z.object({ marked: z.number().int().min(0) });
export type MarkAllReadResponse = z.infer<typeof markAllReadResponseSchema>;
export const notificationListSchema = z.object({ items: z.array(notificationSchema) });
export type NotificationList = z.infer<typeof notificationListSchema>;
