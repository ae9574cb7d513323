import { useId } from 'react';
import { CBadge, CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle, CSpinner } from '@coreui/react';
import type { AiPlatformId, InfoRecord, ProvidersStatus } from '@pipsense/contract';
import { useSaveInfo } from '../api/info-api';
import type { AiPlatform } from '../model/platforms';

interface AiPlatformModalProps {
  visible: boolean;
  platform: AiPlatform | null;
  record: InfoRecord;
  providers: ProvidersStatus;
  onClose: () => void;
}

/** The platform's description and the truth about whether this server can use it; 'Make Default' where it can. */
export function AiPlatformModal({ visible, platform, record, providers, onClose }: AiPlatformModalProps) {
  const titleId = useId();
  const save = useSaveInfo();
  const provider = platform?.provider ? providers[platform.provider] : null;
  const isDefault = platform !== null && record.default_ai_platfrom === platform.id;

  function makeDefault(id: AiPlatformId) {
    save.mutate({ ...record, default_ai_platfrom: id }, { onSuccess: onClose });
  }

  return (
    <CModal visible={visible} onClose={onClose} alignment="center" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>{platform?.name} Configuration</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <p>{platform?.description}</p>
        <h2 className="h6 mb-2">Status</h2>
        {provider ? (
          <div className="d-flex flex-column gap-2">
            <div className="d-flex flex-wrap gap-2">
              <CBadge
                color={provider.configured ? 'success' : 'warning'}
                textColor={provider.configured ? undefined : 'dark'}
              >
                {provider.configured ? 'Configured' : 'Not configured'}
              </CBadge>
              {isDefault && <CBadge color="primary">Your default</CBadge>}
            </div>
            <p className="small text-body-secondary mb-0">{provider.detail}</p>
          </div>
        ) : (
          <div className="d-flex flex-column gap-2">
            <div>
              <CBadge color="secondary">Not available yet</CBadge>
            </div>
            <p className="small text-body-secondary mb-0">
              PipSense cannot use {platform?.name} yet. Your chats are answered by your default AI platform.
            </p>
          </div>
        )}
      </CModalBody>
      <CModalFooter>
        <CButton
          color="secondary"
          variant={provider ? 'outline' : undefined}
          onClick={onClose}
          disabled={save.isPending}
        >
          Close
        </CButton>
        {platform?.provider && (
          <CButton
            color="primary"
            disabled={isDefault || save.isPending}
            onClick={() => makeDefault(platform.id as AiPlatformId)}
          >
            {save.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Make Default
          </CButton>
        )}
      </CModalFooter>
    </CModal>
  );
}
