// How old the figures above it are, in one small line: "Credited up to 14:05", "Shares
// counted up to 14:05" in muted type, or a plain warning once the figures have stopped moving ("No
// shares since 13:40"). Money (revenue/CreditedUpTo) and hashrate (hashrate/SharesAge) say it alike.
import { formatAsOf } from '../lib/format';

export interface FiguresAgeProps {
  /** ISO time the figures are up to date with; no line without one. */
  at: string | null;
  /** The figures lag (accounting behind, no share lately): the line becomes a warning. */
  behind: boolean;
  /** The line for the time ("14:05", or a date and time when not today). */
  upTo: (time: string) => string;
  /** The warning for the time. */
  late: (time: string) => string;
}

export function FiguresAge({ at, behind, upTo, late }: FiguresAgeProps) {
  if (!at) return null;
  const time = formatAsOf(at);
  return behind ? (
    <p className="figures-age figures-age--behind" role="status">
      <time dateTime={at}>{late(time)}</time>
    </p>
  ) : (
    <p className="figures-age muted">
      <time dateTime={at}>{upTo(time)}</time>
    </p>
  );
}
