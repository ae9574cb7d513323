import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CButton, CForm, CFormInput, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { paths } from '../../../config/paths';
import { useSubmit } from '../../../lib/use-submit';
import { requestPasswordReset } from '../api/auth-api';

/**
 * `/forgot_password`: asks for a reset link by email; the answer is the same for any address, shown in
 * place of the form, with a way back to it for a mistyped address.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { busy, run } = useSubmit('The reset link could not be requested.');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      toast.error('Enter the email address of your account.');
      return;
    }
    await run(async () => {
      const result = await requestPasswordReset(email.trim());
      setSent(result.message);
    });
  }

  return (
    <AuthLayout>
      {sent ? (
        <>
          <h1 className="h3 mb-4">Check your email</h1>
          <div className="alert alert-success py-2" role="status">
            {sent}
          </div>
          <p className="small text-body-secondary mb-0">
            Nothing after a few minutes? Look in your spam folder, or{' '}
            <CButton type="button" color="link" size="sm" className="p-0 align-baseline" onClick={() => setSent(null)}>
              try another address
            </CButton>
            .
          </p>
        </>
      ) : (
        <>
          <h1 className="h3 mb-1">Forgot your password?</h1>
          <p className="text-body-secondary mb-4">
            Enter the email address of your account and we will email you a link to choose a new password.
          </p>
          <CForm onSubmit={onSubmit} noValidate>
            <CFormInput
              className="mb-4"
              id="forgot-email"
              type="email"
              label="Email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <CButton type="submit" color="primary" className="w-100" disabled={busy}>
              {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Send the reset link
            </CButton>
          </CForm>
        </>
      )}
      <div className="mt-4 small">
        <Link to={paths.login}>Back to sign in</Link>
      </div>
    </AuthLayout>
  );
}
