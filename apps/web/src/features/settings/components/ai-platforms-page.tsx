import { useState } from 'react';
import { CCol, CRow } from '@coreui/react';
import type { ProvidersStatus } from '@pipsense/contract';
import { useInfo } from '../../../lib/info-query';
import { aiPlatforms, type AiPlatform } from '../model/platforms';
import { AiPlatformModal } from './ai-platform-modal';
import { InfoError, InfoLoading } from './info-status';
import { PlatformCard } from './platform-card';

function note(platform: AiPlatform, providers: ProvidersStatus) {
  if (!platform.provider) return <span className="text-body-secondary">Not available yet</span>;
  return providers[platform.provider].configured ? (
    <span className="text-success-emphasis">Configured on this server</span>
  ) : (
    <span className="text-warning-emphasis">Not configured on this server</span>
  );
}

export function AiPlatformsPage() {
  const info = useInfo();
  const [selected, setSelected] = useState<AiPlatform | null>(null);
  const [visible, setVisible] = useState(false);

  if (info.isPending) return <InfoLoading />;
  if (info.isError) return <InfoError message={info.error.message} onRetry={() => void info.refetch()} />;
  const { data: record, providers } = info.data;

  return (
    <>
      <p className="text-body-secondary mb-4">
        Choose the AI platform that answers your questions in AI Chat. Click a platform for its details.
      </p>
      <CRow xs={{ cols: 1, gutter: 4 }} md={{ cols: 2 }} xl={{ cols: 3 }}>
        {aiPlatforms.map((platform) => (
          <CCol key={platform.id}>
            <PlatformCard
              {...platform}
              active={record.default_ai_platfrom === platform.id}
              note={note(platform, providers)}
              onOpen={() => {
                setSelected(platform);
                setVisible(true);
              }}
            />
          </CCol>
        ))}
      </CRow>
      <AiPlatformModal
        visible={visible}
        platform={selected}
        record={record}
        providers={providers}
        onClose={() => setVisible(false)}
      />
    </>
  );
}
