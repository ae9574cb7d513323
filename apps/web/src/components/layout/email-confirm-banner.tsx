import { CAlert, CButton, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import type { Envelope } from '@pipsense/contract';
import { config } from '../../config/env';
import { authRequest } from '../../lib/api';
import { useProfile } from '../../lib/profile-query';
import { useSubmit } from '../../lib/use-submit';

/**
 * Until the emailed link is opened, a banner asks to confirm the address, with a resend. The account works
 * meanwhile; a confirmed address is what a password reset is sent to.
 */
export function EmailConfirmBanner() {
  const profile = useProfile();
  const { busy, run } = useSubmit('The confirmation email could not be sent.');
  if (profile.data?.emailConfirmed !== false) return null;

  const resend = () =>
    run(async () => {
      const result = await authRequest<Envelope>('POST', `${config.backend}/api/v1/auth/resend_confirmation`);
      toast.success(result.message);
    });

  return (
    <CAlert color="warning" className="d-flex flex-wrap align-items-center gap-2 py-2" role="status">
      <span className="me-auto">
        Please confirm your email address: we sent a link to <strong>{profile.data.email}</strong>.
      </span>
      <CButton type="button" color="dark" variant="outline" size="sm" disabled={busy} onClick={() => void resend()}>
        {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Send the link again
      </CButton>
    </CAlert>
  );
}
