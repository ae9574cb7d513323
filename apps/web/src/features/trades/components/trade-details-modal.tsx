import type { TradeItem } from '@pipsense/contract';
import { DetailList } from '../../../components/data/detail-list';
import { DetailsModal } from '../../../components/data/details-modal';
import { formatInstrument } from '../../../components/data/format';
import { tradeDetails } from '../model/trade-details';
import { direction } from '../model/trade-format';
import { TradeChart } from './trade-chart';

interface TradeDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  trade: TradeItem | null;
  /** The trading service the candles come from. */
  base: string | null;
  onClose: () => void;
}

/** SPEC §2: 'Trade Details', the trade's fields and a chart of the instrument around it. */
export function TradeDetailsModal({ visible, trade, base, onClose }: TradeDetailsModalProps) {
  return (
    <DetailsModal title="Trade Details" visible={visible} onClose={onClose}>
      {trade && (
        <>
          <p className="text-body-secondary mb-3">
            #{trade.tradeId} · {formatInstrument(trade.instrument)} · {direction(trade)}
          </p>
          {base !== null && <TradeChart key={trade.tradeId} base={base} trade={trade} />}
          <DetailList items={tradeDetails(trade)} />
        </>
      )}
    </DetailsModal>
  );
}
