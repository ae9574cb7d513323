import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { CCard, CCardBody } from '@coreui/react';
import { lazyChunk } from '../errors/lazy-chunk';
import { ErrorBoundary } from '../errors/route-error-boundary';

// three.js is heavy: load it after the form, never in its way.
const TorusCanvas = lazyChunk('torus-canvas', () => import('./torus-canvas'), 'default');

/** The auth pages: the torus panel beside the form (hidden on small screens), the card at most 400 px wide. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const wide = useWideScreen();
  return (
    <div className="auth-page">
      <aside className="auth-panel d-none d-md-flex" aria-hidden="true">
        {wide && (
          // The torus is decoration: if its chunk fails, the panel goes without it and the form stays.
          <ErrorBoundary fallback={null}>
            <Suspense fallback={null}>
              <TorusCanvas />
            </Suspense>
          </ErrorBoundary>
        )}
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

/** The panel shows from Bootstrap's md breakpoint up; below it three.js is never even downloaded. */
function useWideScreen(): boolean {
  const query = '(min-width: 768px)';
  const [wide, setWide] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setWide(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return wide;
}
