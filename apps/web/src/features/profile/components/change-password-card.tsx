import { useState, type FormEvent } from 'react';
import { CFormInput } from '@coreui/react';
import { toast } from 'react-toastify';
import { FormCard } from './form-card';
import { useSubmit } from '../../../lib/use-submit';
import { setToken } from '../../../lib/token';
import { updatePassword } from '../api/profile-api';

/**
 * The Change Password card of docs/PRODUCT.md, Profile settings, with the current password first
 * (docs/decisions/016-password-change-needs-current.md): the change ends
 * every other session, and this one carries on with the fresh token the server answers.
 */
export function ChangePasswordCard() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, run } = useSubmit('An error occurred while changing the password');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== confirm) {
      toast.error('Passwords do not match');
      return;
    }
    if (!current) {
      toast.error('Enter your current password');
      return;
    }
    await run(async () => {
      const result = await updatePassword(current, password);
      setToken(result.token);
      toast.success('Password changed successfully');
      setCurrent('');
      setPassword('');
      setConfirm('');
    });
  }

  return (
    <FormCard title="Change Password" busy={busy} onSubmit={onSubmit}>
      <div className="mb-3">
        <CFormInput
          id="profile-current-password"
          type="password"
          label="Current Password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
      </div>
      <div className="mb-3">
        <CFormInput
          id="profile-password"
          type="password"
          label="Password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          text="8–128 characters. Changing it signs out your other sessions."
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
    </FormCard>
  );
}
