import { lazy, Suspense } from 'react';
import { CSpinner } from '@coreui/react';
import type { Attachment } from '@pipsense/contract';
import { TradesTable } from './trades-table';

// The chart library is large and only some answers carry candles: load it on first use.
const CandlesChart = lazy(() => import('./candles-chart'));

/** What an answer carries beside its text, rendered below it. */
export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <div className="chat-attachments">
      {attachments.map((attachment, i) =>
        attachment.type === 'candles' ? (
          <Suspense
            key={i}
            fallback={
              <div className="chat-candles d-flex align-items-center justify-content-center text-body-secondary small">
                <CSpinner size="sm" className="me-2" aria-hidden="true" /> Loading chart…
              </div>
            }
          >
            <CandlesChart attachment={attachment} />
          </Suspense>
        ) : (
          <TradesTable key={i} attachment={attachment} />
        ),
      )}
    </div>
  );
}
