import { useState, type FormEvent } from 'react';
import { CFormInput } from '@coreui/react';
import { toast } from 'react-toastify';
import { FormCard } from './form-card';
import { useSubmit } from '../../../lib/use-submit';
import { updatePassword } from '../api/profile-api';

export function ChangePasswordCard() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, run } = useSubmit('An error occurred while changing the password');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== confirm) {
      toast.error('Passwords do not match');
      return;
    }
    await run(async () => {
      await updatePassword(password);
      toast.success('Password changed successfully');
      setPassword('');
      setConfirm('');
    });
  }

  return (
    <FormCard title="Change Password" busy={busy} onSubmit={onSubmit}>
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
    </FormCard>
  );
}
