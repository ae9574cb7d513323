import { useState, type FormEvent } from 'react';
import { CButton, CCard, CCardBody, CCardHeader, CForm, CFormInput, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { useSubmit } from '../../../lib/use-submit';
import { clearSession } from '../../../lib/token';
import { deleteAccount } from '../api/profile-api';

/**
 * Profile → Delete account. Two steps: the button opens the confirmation, which needs the password; the
 * server then removes the account and every row of its data, and the browser is signed out.
 */
export function DeleteAccountCard() {
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const { busy, run } = useSubmit('An error occurred while deleting the account');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      toast.error('Enter your password to delete the account');
      return;
    }
    await run(async () => {
      await deleteAccount(password);
      clearSession('/login', 'Your account and all of its data have been deleted.');
    });
  }

  return (
    <CCard className="h-100 border-danger-subtle">
      <CCardHeader as="h2" className="h6 mb-0 py-3 text-danger-emphasis">
        Delete account
      </CCardHeader>
      <CCardBody>
        <p className="text-body-secondary">
          Deletes your account and everything in it for good: trades, accounts, journal, chats, settings and your saved
          OANDA token. This cannot be undone.
        </p>
        {confirming ? (
          <CForm onSubmit={onSubmit} noValidate>
            <div className="mb-3">
              <CFormInput
                id="profile-delete-password"
                type="password"
                label="Password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                text="Enter your password to confirm."
              />
            </div>
            {/* Stacked full width on a phone, side by side from sm up. */}
            <div className="d-flex flex-column flex-sm-row gap-2">
              <CButton type="submit" color="danger" disabled={busy}>
                {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Delete my account for good
              </CButton>
              <CButton
                type="button"
                color="secondary"
                variant="outline"
                disabled={busy}
                onClick={() => {
                  setConfirming(false);
                  setPassword('');
                }}
              >
                Cancel
              </CButton>
            </div>
          </CForm>
        ) : (
          <CButton type="button" color="danger" variant="outline" onClick={() => setConfirming(true)}>
            Delete account…
          </CButton>
        )}
      </CCardBody>
    </CCard>
  );
}
