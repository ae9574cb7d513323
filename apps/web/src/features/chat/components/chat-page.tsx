import { CCard, CCardBody } from '@coreui/react';

export function ChatPage() {
  return (
    <CCard>
      <CCardBody>This screen is being built.</CCardBody>
    </CCard>
  );
}
