import { lazy, Suspense, type ReactNode } from 'react';
import { CCard, CCardBody } from '@coreui/react';

// three.js is heavy: load it after the form, never in its way.
const TorusCanvas = lazy(() => import('./torus-canvas'));

/** The auth pages: the torus panel beside the form (hidden on small screens), the card at most 400 px wide. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-page">
      <aside className="auth-panel d-none d-md-flex" aria-hidden="true">
        <Suspense fallback={null}>
          <TorusCanvas />
        </Suspense>
        <div className="auth-panel-text">
          <div className="auth-brand">PipSense</div>
          <p>Your OANDA trades, measured and explained.</p>
        </div>
      </aside>
      <main className="auth-main">
        <CCard className="auth-card">
          <CCardBody className="p-4">{children}</CCardBody>
        </CCard>
      </main>
    </div>
  );
}
