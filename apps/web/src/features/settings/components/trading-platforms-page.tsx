import { useId, useState, type ReactNode } from 'react';
import { CButton, CCol, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle, CRow } from '@coreui/react';
import type { InfoRecord } from '@pipsense/contract';
import { useInfo } from '../../../lib/info-query';
import { useMetaTraderAccounts } from '../api/metatrader-accounts';
import { isOandaActive } from '../model/oanda-form';
import { METATRADER_LABEL, tradingPlatforms, type TradingPlatform } from '../model/platforms';
import { InfoError, InfoLoading } from './info-status';
import { MetaTraderModal } from './metatrader-modal';
import { OandaConfigModal } from './oanda-config-modal';
import { PlatformCard } from './platform-card';
import { SyncScheduleSelect } from './sync-schedule-select';

const modeLabel = (mode: InfoRecord['oanda']['mode']) => (mode === 'live' ? 'Live' : 'Demo');

function oandaNote(record: InfoRecord, notice: string | undefined) {
  // The saved token can no longer be read (the server's key changed): not configured, with the server's message.
  if (!record.oanda.accessToken && notice) return <span className="text-warning-emphasis">{notice}</span>;
  if (!record.oanda.accessToken)
    return <span className="text-body-secondary">Not configured yet: click to add your token.</span>;
  return (
    <span className="text-success-emphasis">
      Configured · {modeLabel(record.oanda.mode)} · {record.oanda.accountId || "all the token's accounts"}
    </span>
  );
}

function metaTraderNote(count: number | undefined) {
  if (count === undefined) return <span className="text-body-secondary">Reports imported from the terminal</span>;
  if (count === 0) return <span className="text-body-secondary">No report imported yet: click to import one.</span>;
  return (
    <span className="text-success-emphasis">
      {count === 1 ? '1 account imported' : `${count.toLocaleString()} accounts imported`}
    </span>
  );
}

export function TradingPlatformsPage() {
  const info = useInfo();
  const mtAccounts = useMetaTraderAccounts();
  const [selected, setSelected] = useState<TradingPlatform | null>(null);
  const [visible, setVisible] = useState(false);
  const open = (platform: TradingPlatform) => {
    setSelected(platform);
    setVisible(true);
  };
  const close = () => setVisible(false);

  if (info.isPending) return <InfoLoading />;
  if (info.isError) return <InfoError message={info.error.message} onRetry={() => void info.refetch()} />;
  const record = info.data.data;
  const mtCount = mtAccounts.data?.total ?? mtAccounts.data?.data.length;
  // Active when it is the default and an import exists (an unfed MetaTrader is not in use).
  const states: Record<TradingPlatform['id'], { active: boolean; note: ReactNode }> = {
    oanda: { active: isOandaActive(record), note: oandaNote(record, info.data.oandaNotice) },
    metatrader: {
      active: record.default_trading_platfrom === METATRADER_LABEL && (mtCount ?? 0) > 0,
      note: metaTraderNote(mtCount),
    },
    tradingview: { active: false, note: <span className="text-body-secondary">Not available yet</span> },
  };

  return (
    <>
      <p className="text-body-secondary mb-4">
        Connect the broker account PipSense syncs your trades and accounts from, or import your MetaTrader reports.
        Click a platform to configure it.
      </p>
      <CRow xs={{ cols: 1, gutter: 4 }} md={{ cols: 2 }} xl={{ cols: 3 }}>
        {tradingPlatforms.map((platform) => (
          <CCol key={platform.name}>
            <PlatformCard
              {...platform}
              active={states[platform.id].active}
              note={states[platform.id].note}
              onOpen={() => open(platform)}
            />
          </CCol>
        ))}
      </CRow>
      {record.oanda.accessToken && <SyncScheduleSelect />}
      <OandaConfigModal visible={visible && selected?.id === 'oanda'} record={record} onClose={close} />
      <MetaTraderModal
        visible={visible && selected?.id === 'metatrader'}
        record={record}
        accounts={mtAccounts.isError ? null : mtAccounts.data?.data}
        onClose={close}
      />
      <UnavailablePlatformModal
        visible={visible && selected?.available === false}
        name={selected?.name ?? ''}
        onClose={close}
      />
    </>
  );
}

function UnavailablePlatformModal({ visible, name, onClose }: { visible: boolean; name: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <CModal visible={visible} onClose={onClose} alignment="center" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>{name} Configuration</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <p className="mb-2">{name} is not available yet, so there is nothing to configure.</p>
        <p className="mb-0 text-body-secondary small">
          PipSense syncs OANDA and imports MetaTrader 4/5 reports. Configure one of them for your trades and accounts.
        </p>
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" onClick={onClose}>
          Close
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
