import type { FormEvent, ReactNode } from 'react';
import { CButton, CCard, CCardBody, CCardHeader, CForm, CSpinner } from '@coreui/react';

/** A profile card: a titled form with one 'Save Changes' button that shows a spinner while busy. */
export function FormCard(props: {
  title: string;
  busy: boolean;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <CCard className="h-100">
      <CCardHeader as="h2" className="h6 mb-0 py-3">
        {props.title}
      </CCardHeader>
      <CCardBody>
        <CForm onSubmit={props.onSubmit} noValidate>
          {props.children}
          <CButton type="submit" color="primary" disabled={props.busy}>
            {props.busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Save Changes
          </CButton>
        </CForm>
      </CCardBody>
    </CCard>
  );
}
