import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CButton, CForm, CFormInput, CFormText, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { clearSession } from '../../../lib/token';
import { useSubmit } from '../../../lib/use-submit';
import { passwordMatchHint } from '../validation';
import { resetPassword } from '../api/auth-api';

const NO_TOKEN = 'This link has no token. Open the whole link from the email, or ask for a new one.';

/**
 * `/reset_password?token=…`, opened from the emailed link: a new password, once, within the hour. Every
 * session of the account ends, this browser's too, and the trader signs in with the new password. A link that is
 * used, expired or incomplete replaces the form with why, and a new link is one click away.
 */
export function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  /** Why the link cannot be used (the server's INVALID_LINK message), once it said so. */
  const [refused, setRefused] = useState<string | null>(token ? null : NO_TOKEN);
  const { busy, run } = useSubmit('The password could not be reset.');
  const hint = passwordMatchHint(password, confirm);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password || !confirm) {
      toast.error('All fields are required.');
      return;
    }
    if (password !== confirm) {
      toast.error('Passwords do not match');
      return;
    }
    await run(async () => {
      try {
        const result = await resetPassword(token, password);
        clearSession(paths.login, result.message);
      } catch (error) {
        // A spent link stays spent: no form to fill again, the way to a new link instead.
        if (error instanceof ApiError && error.code === 'INVALID_LINK') setRefused(error.message);
        else throw error;
      }
    });
  }

  return (
    <AuthLayout>
      {refused ? (
        <>
          <h1 className="h3 mb-4">This link cannot be used</h1>
          <div className="alert alert-warning py-2 mb-4" role="alert">
            {refused}
          </div>
          <Link to={paths.forgotPassword} className="btn btn-primary w-100">
            Ask for a new link
          </Link>
        </>
      ) : (
        <>
          <h1 className="h3 mb-1">Choose a new password</h1>
          <p className="text-body-secondary mb-4">Setting it signs out every session of your account.</p>
          <CForm onSubmit={onSubmit} noValidate>
            <div className="mb-3">
              <CFormInput
                id="reset-password"
                type="password"
                label="New Password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                text="8–128 characters."
              />
            </div>
            <div className="mb-4">
              <CFormInput
                id="reset-confirm-password"
                type="password"
                label="Confirm Password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
              {hint && (
                <CFormText className={hint.ok ? 'text-success' : 'text-danger'} role="status">
                  {hint.text}
                </CFormText>
              )}
            </div>
            <CButton type="submit" color="primary" className="w-100" disabled={busy}>
              {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Set the new password
            </CButton>
          </CForm>
        </>
      )}
      <div className="d-flex justify-content-between flex-wrap gap-2 mt-4 small">
        {/* Beside the form only: a refused link has the button above. */}
        {!refused && <Link to={paths.forgotPassword}>Ask for a new link</Link>}
        <Link to={paths.login}>Back to sign in</Link>
      </div>
    </AuthLayout>
  );
}
