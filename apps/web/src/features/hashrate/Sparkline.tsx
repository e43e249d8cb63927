// A tiny inline SVG line of a worker's hourly hashrate (lighter than a chart library per row).
import './hashrate.css';

export interface SparklineProps {
  values: readonly number[];
  /** Accessible description, e.g. "Hashrate over the last 24 hours". */
  label: string;
  width?: number;
  height?: number;
}

/** Polyline points scaled into the box, oldest value at x = 0; a flat line at the bottom for all zeros. */
export function sparklinePoints(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const max = Math.max(...values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0)));
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const y = max > 0 ? height - (Math.max(v, 0) / max) * (height - 2) - 1 : height - 1;
      return `${(i * step).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

export function Sparkline({ values, label, width = 96, height = 24 }: SparklineProps) {
  if (values.length === 0) return <span className="sparkline sparkline--empty">—</span>;
  // Time runs forward left to right in both directions (SVG coordinates do not mirror in RTL).
  return (
    <svg
      className="sparkline"
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      <polyline
        points={sparklinePoints(values, width, height)}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
      />
    </svg>
  );
}
