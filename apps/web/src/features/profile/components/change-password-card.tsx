import { useState, type FormEvent } from 'react';
import { CButton, CCard, CCardBody, CCardHeader, CForm, CFormInput, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { updatePassword } from '../api/profile-api';

export function ChangePasswordCard() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== confirm) {
      toast.error('Passwords do not match');
      return;
    }
    setBusy(true);
    try {
      const result = await updatePassword(password);
      if (!result.success) {
        toast.error(result.message);
        return;
      }
      toast.success('Password changed successfully');
      setPassword('');
      setConfirm('');
    } catch {
      toast.error('An error occurred while changing the password');
    } finally {
      setBusy(false);
    }
  }

  return (
    <CCard className="h-100">
      <CCardHeader as="h2" className="h6 mb-0 py-3">
        Change Password
      </CCardHeader>
      <CCardBody>
        <CForm onSubmit={onSubmit} noValidate>
          <div className="mb-3">
            <CFormInput
              id="profile-password"
              type="password"
              label="Password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              text="8–128 characters."
            />
          </div>
          <div className="mb-4">
            <CFormInput
              id="profile-confirm-password"
              type="password"
              label="Confirm Password"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
          </div>
          <CButton type="submit" color="primary" disabled={busy}>
            {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Save Changes
          </CButton>
        </CForm>
      </CCardBody>
    </CCard>
  );
}
