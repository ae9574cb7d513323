import type { ReactNode } from 'react';
import { CCard, CCardBody, CCardHeader } from '@coreui/react';

interface ListCardProps {
  title: string;
  /** The platform dropdown and the Sync button. */
  toolbar: ReactNode;
  children: ReactNode;
}

/** The frame of the Trades and Accounts screens: the title with its controls, then the list. */
export function ListCard({ title, toolbar, children }: ListCardProps) {
  return (
    <CCard className="data-card mb-4">
      <CCardHeader className="data-card-header">
        <h2 className="h5 mb-0 data-card-title">{title}</h2>
        <div className="data-card-toolbar">{toolbar}</div>
      </CCardHeader>
      <CCardBody className="p-0">{children}</CCardBody>
    </CCard>
  );
}

interface ListFooterProps {
  page: number;
  pageSize: number;
  shown: number;
  total: number | undefined;
  /** Plural noun for the range line: 'trades'. */
  what: string;
  children: ReactNode;
}

/** The range line ('Showing 11–20 of 1,240 trades') beside the pagination. */
export function ListFooter({ page, pageSize, shown, total, what, children }: ListFooterProps) {
  const first = (page - 1) * pageSize + 1;
  const range = shown > 0 ? `${first.toLocaleString()}–${(first + shown - 1).toLocaleString()}` : '0';
  return (
    <div className="data-card-footer">
      <span className="text-body-secondary small">
        Showing {range}
        {total !== undefined && ` of ${total.toLocaleString()}`} {what}
      </span>
      {children}
    </div>
  );
}
