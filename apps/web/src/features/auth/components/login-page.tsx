import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { CButton, CForm, CFormInput, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { config } from '../../../config/env';
import { paths } from '../../../config/paths';
import { failureMessage } from '../../../lib/api';
import { setToken, takeFlash } from '../../../lib/token';
import { login } from '../api/auth-api';

export function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const routed = (useLocation().state as { message?: string } | null)?.message;
  // After a deletion or "log out everywhere", the full page load carries its message here.
  const [stored] = useState(takeFlash);
  const flash = routed ?? stored;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!username.trim() || !password) {
      toast.error('All fields are required.');
      return;
    }
    setBusy(true);
    try {
      const result = await login({ username: username.trim(), password });
      if (result.token) {
        setToken(result.token);
        toast.success('Login successful!');
        setUsername('');
        setPassword('');
        // A full page load, so the whole app starts again as the signed-in app.
        window.setTimeout(() => window.location.assign(config.dashboardUrl), 600);
        return;
      }
      toast.error('Login failed.');
    } catch (error) {
      toast.error(failureMessage(error, 'An error occurred.'));
    }
    setBusy(false);
  }

  return (
    <AuthLayout>
      <h1 className="h3 mb-1">Welcome to PipSense</h1>
      <p className="text-body-secondary mb-4">Please sign in to your account.</p>
      {flash && (
        <div className="alert alert-success py-2" role="status">
          {flash}
        </div>
      )}
      <CForm onSubmit={onSubmit} noValidate>
        <CFormInput
          className="mb-3"
          id="login-username"
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <CFormInput
          className="mb-2"
          id="login-password"
          type="password"
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {/* Where the trader who cannot sign in looks: beside the password. */}
        <div className="text-end mb-4 small">
          <Link to={paths.forgotPassword}>Forgot your password?</Link>
        </div>
        <CButton type="submit" color="primary" className="w-100" disabled={busy}>
          {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Sign In
        </CButton>
      </CForm>
      {/* Side by side where they fit; stacked and centred on a phone. */}
      <div className="d-flex flex-column flex-sm-row align-items-center justify-content-sm-between gap-2 mt-4 small">
        <Link to={paths.publicFaqs}>Need help? Visit our FAQ</Link>
        <Link to={paths.register}>Create an account</Link>
      </div>
    </AuthLayout>
  );
}
