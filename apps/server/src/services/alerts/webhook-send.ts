import { sendOutbound, systemResolve, type OutboundLimits, type Resolve } from '../outbound/policy.js';

// One webhook POST under the outbound policy (services/outbound/policy.ts: https, every resolved
// address public and the one connected to, no redirects, a deadline, a capped answer).

export type WebhookLimits = OutboundLimits;

export type WebhookOutcome =
  | { ok: true; status: number }
  /** `retry`: worth another attempt later (5xx, 408, 425, 429, a timeout, a network error). */
  | { ok: false; retry: boolean; error: string };

function classify(status: number): WebhookOutcome {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400)
    return { ok: false, retry: false, error: `HTTP ${status}: redirects are not followed` };
  const retry = status >= 500 || status === 408 || status === 425 || status === 429;
  return { ok: false, retry, error: `HTTP ${status}` };
}

/** POSTs `body` (JSON) to `url`; never throws: the outcome says what happened. */
export async function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  limits: WebhookLimits,
  resolve: Resolve = systemResolve,
): Promise<WebhookOutcome> {
  const result = await sendOutbound(
    url,
    { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body },
    limits,
    resolve,
  );
  if (result.sent) return classify(result.status);
  return { ok: false, retry: !result.refused, error: result.error };
}
