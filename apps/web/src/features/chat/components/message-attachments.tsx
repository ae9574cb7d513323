import type { Attachment } from '@pipsense/contract';
import { CandlesFigure } from './candles-figure';
import { TradesTable } from './trades-table';

/** What an answer carries beside its text, rendered below it. */
export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <div className="chat-attachments">
      {attachments.map((attachment, i) =>
        attachment.type === 'candles' ? (
          <CandlesFigure key={i} attachment={attachment} />
        ) : (
          <TradesTable key={i} attachment={attachment} />
        ),
      )}
    </div>
  );
}
