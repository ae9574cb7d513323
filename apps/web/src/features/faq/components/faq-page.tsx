import { CCard, CCardBody } from '@coreui/react';
import { FaqAccordion } from './faq-accordion';

/** The signed-in FAQ at /settings/faqs, inside the layout. */
export function FaqPage() {
  return (
    <CCard className="faq-card">
      <CCardBody className="p-3 p-md-4">
        <h2 className="h4 mb-4">PipSense FAQ</h2>
        <FaqAccordion />
      </CCardBody>
    </CCard>
  );
}
