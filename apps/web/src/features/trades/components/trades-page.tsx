import { CCard, CCardBody } from '@coreui/react';

export function TradesPage() {
  return (
    <CCard>
      <CCardBody>This screen is being built.</CCardBody>
    </CCard>
  );
}
