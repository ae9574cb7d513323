import type { ReactNode } from 'react';

export interface Detail {
  label: string;
  value: ReactNode;
  /** Extra classes for the value, e.g. the P/L colour. */
  className?: string;
}

/** Label/value pairs of a details modal, two columns wide on larger screens, one on phones. */
export function DetailList({ items }: { items: readonly Detail[] }) {
  return (
    <dl className="detail-list mb-0">
      {items.map(({ label, value, className }) => (
        <div key={label} className="detail-item">
          <dt>{label}</dt>
          <dd className={className}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
