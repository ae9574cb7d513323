import type { ReactNode } from 'react';
import { CCard, CCardBody } from '@coreui/react';

/** A chart under its title, with a line saying what it plots. */
export function ChartCard({ title, note, children }: { title: string; note: string; children: ReactNode }) {
  const id = `chart-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <CCard className="chart-card h-100" role="region" aria-labelledby={id}>
      <CCardBody>
        <h3 id={id} className="chart-card-title">
          {title}
        </h3>
        <p className="chart-card-note">{note}</p>
        {children}
      </CCardBody>
    </CCard>
  );
}
