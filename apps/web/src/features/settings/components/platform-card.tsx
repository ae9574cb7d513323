import type { KeyboardEvent, ReactNode } from 'react';
import { CAvatar, CBadge, CCard, CCardBody, CCardText, CCardTitle } from '@coreui/react';

interface PlatformCardProps {
  name: string;
  mark: string;
  color: string;
  description: string;
  active: boolean;
  /** A short line about this user's state of the platform (connected account, not available yet, ...). */
  note?: ReactNode;
  onOpen: () => void;
}

/** A settings card that opens its platform's modal on click, Enter or Space. */
export function PlatformCard({ name, mark, color, description, active, note, onOpen }: PlatformCardProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen();
    }
  };
  return (
    <CCard
      className="platform-card"
      role="button"
      tabIndex={0}
      aria-haspopup="dialog"
      aria-label={`${name}, ${active ? 'Active' : 'Inactive'}: open ${name} Configuration`}
      onClick={onOpen}
      onKeyDown={onKeyDown}
    >
      <CCardBody className="d-flex flex-column">
        <div className="d-flex align-items-center gap-3 mb-3">
          <CAvatar color={color} textColor="white" size="lg" className="platform-mark" aria-hidden="true">
            {mark}
          </CAvatar>
          <CCardTitle className="mb-0 flex-grow-1 fs-6 fw-semibold">{name}</CCardTitle>
          <CBadge color={active ? 'success' : 'secondary'} shape="rounded-pill">
            {active ? 'Active' : 'Inactive'}
          </CBadge>
        </div>
        <CCardText className="text-body-secondary small flex-grow-1">{description}</CCardText>
        {note && <div className="small platform-note">{note}</div>}
      </CCardBody>
    </CCard>
  );
}
