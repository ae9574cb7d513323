import { useId } from 'react';
import { CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle } from '@coreui/react';
import type { TradeItem } from '@pipsense/contract';
import { DetailList } from '../../../components/data/detail-list';
import { formatInstrument } from '../../../components/data/format';
import { tradeDetails } from '../model/trade-details';
import { direction } from '../model/trade-format';
import { TradeChart } from './trade-chart';

export interface TradeDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  trade: TradeItem | null;
  /** The trading service the candles come from. */
  base: string | null;
  onClose: () => void;
}

/** SPEC §2: 'Trade Details', the trade's fields and a chart of the instrument around it. */
export function TradeDetailsModal({ visible, trade, base, onClose }: TradeDetailsModalProps) {
  const titleId = useId();
  return (
    <CModal
      visible={visible && trade !== null}
      onClose={onClose}
      size="lg"
      fullscreen="sm"
      scrollable
      alignment="center"
      aria-labelledby={titleId}
    >
      <CModalHeader>
        <CModalTitle id={titleId}>Trade Details</CModalTitle>
      </CModalHeader>
      {trade && (
        <CModalBody>
          <p className="text-body-secondary mb-3">
            #{trade.tradeId} · {formatInstrument(trade.instrument)} · {direction(trade)}
          </p>
          {base !== null && <TradeChart key={trade.tradeId} base={base} trade={trade} />}
          <DetailList items={tradeDetails(trade)} />
        </CModalBody>
      )}
      <CModalFooter>
        <CButton color="secondary" onClick={onClose}>
          Close
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
