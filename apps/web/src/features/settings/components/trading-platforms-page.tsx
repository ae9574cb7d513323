import { useId, useState } from 'react';
import { CButton, CCol, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle, CRow } from '@coreui/react';
import type { InfoRecord } from '@pipsense/contract';
import { useInfo } from '../../../lib/info-query';
import { isOandaActive } from '../model/oanda-form';
import { tradingPlatforms, type TradingPlatform } from '../model/platforms';
import { InfoError, InfoLoading } from './info-status';
import { OandaConfigModal } from './oanda-config-modal';
import { PlatformCard } from './platform-card';

const modeLabel = (mode: InfoRecord['oanda']['mode']) => (mode === 'live' ? 'Live' : 'Demo');

function oandaNote(record: InfoRecord) {
  if (!record.oanda.accessToken)
    return <span className="text-body-secondary">Not configured yet: click to add your token.</span>;
  return (
    <span className="text-success-emphasis">
      Configured · {modeLabel(record.oanda.mode)} · {record.oanda.accountId || "all the token's accounts"}
    </span>
  );
}

export function TradingPlatformsPage() {
  const info = useInfo();
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

  return (
    <>
      <p className="text-body-secondary mb-4">
        Connect the broker account PipSense syncs your trades and accounts from. Click a platform to configure it.
      </p>
      <CRow xs={{ cols: 1, gutter: 4 }} md={{ cols: 2 }} xl={{ cols: 3 }}>
        {tradingPlatforms.map((platform) => (
          <CCol key={platform.name}>
            <PlatformCard
              {...platform}
              active={platform.available ? isOandaActive(record) : false}
              note={
                platform.available ? oandaNote(record) : <span className="text-body-secondary">Not available yet</span>
              }
              onOpen={() => open(platform)}
            />
          </CCol>
        ))}
      </CRow>
      <OandaConfigModal visible={visible && selected?.available === true} record={record} onClose={close} />
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
          PipSense currently connects to OANDA only. Configure OANDA to sync your trades and accounts.
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
