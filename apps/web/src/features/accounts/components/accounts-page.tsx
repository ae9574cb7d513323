import { CCard, CCardBody } from '@coreui/react';

export function AccountsPage() {
  return (
    <CCard>
      <CCardBody>This screen is being built.</CCardBody>
    </CCard>
  );
}
