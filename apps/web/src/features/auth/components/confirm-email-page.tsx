import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CSpinner } from '@coreui/react';
import { AuthLayout } from '../../../components/auth/auth-layout';
import { paths } from '../../../config/paths';
import { failureMessage } from '../../../lib/api';
import { hasToken } from '../../../lib/token';
import { confirmEmail } from '../api/auth-api';

type State = { status: 'working' } | { status: 'done' | 'failed'; message: string };

/**
 * `/confirm_email?token=…`, opened from the emailed link, signed in or not: confirms the address once on
 * arrival and says how it went.
 */
export function ConfirmEmailPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const [state, setState] = useState<State>(
    token
      ? { status: 'working' }
      : { status: 'failed', message: 'This link has no token. Open the whole link from the email.' },
  );
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirmEmail(token).then(
      (result) => setState({ status: 'done', message: result.message }),
      (error: unknown) =>
        setState({ status: 'failed', message: failureMessage(error, 'The email address could not be confirmed.') }),
    );
  }, [token]);

  const next = hasToken() ? { to: paths.overview, label: 'Go to PipSense' } : { to: paths.login, label: 'Sign in' };
  return (
    <AuthLayout>
      <h1 className="h3 mb-4">Email confirmation</h1>
      {state.status === 'working' ? (
        <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          Confirming your email address…
        </div>
      ) : (
        <>
          <div
            className={`alert ${state.status === 'done' ? 'alert-success' : 'alert-danger'} py-2 mb-4`}
            role="status"
          >
            {state.message}
          </div>
          <Link to={next.to} className="btn btn-primary w-100">
            {next.label}
          </Link>
        </>
      )}
    </AuthLayout>
  );
}
