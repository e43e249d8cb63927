/**
 * The health rule /api/health and the operator console share: 'degraded' while the pool cannot
 * serve (database or a node down) or an operator alert is open, else 'ok'.
 */
export function healthStatus(report: { ok: boolean; alerts: readonly unknown[] }): 'ok' | 'degraded' {
  return report.ok && report.alerts.length === 0 ? 'ok' : 'degraded';
}
