import type { ReactNode } from 'react';

export interface LtrProps {
  children: ReactNode;
  /** Monospace for hashes, addresses, ports and pool URLs (default true). */
  mono?: boolean;
  className?: string;
  title?: string;
}

/** Keeps hashes, addresses, ports and URLs left-to-right inside Arabic text. */
export function Ltr({ children, mono = true, className, title }: LtrProps) {
  const classes = ['ltr', mono ? 'mono' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <span dir="ltr" className={classes} title={title}>
      {children}
    </span>
  );
}
