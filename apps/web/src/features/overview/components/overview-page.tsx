import { CCard, CCardBody } from '@coreui/react';

export function OverviewPage() {
  return (
    <CCard>
      <CCardBody>This screen is being built.</CCardBody>
    </CCard>
  );
}
