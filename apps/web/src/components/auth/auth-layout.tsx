import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { CCard, CCardBody } from '@coreui/react';
import { lazyChunk } from '../errors/lazy-chunk';
import { ErrorBoundary } from '../errors/route-error-boundary';

// three.js is heavy: load it after the form, never in its way (see useAfterFirstPaint).
const TorusCanvas = lazyChunk('torus-canvas', () => import('./torus-canvas'), 'default');

// Drawn in CSS where the torus will turn, until its chunk has arrived.
const placeholder = <div className="torus-placeholder" data-testid="torus-placeholder" />;

/** The auth pages: the torus panel beside the form (hidden on small screens), the card at most 400 px wide. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const wide = useWideScreen();
  const idle = useAfterFirstPaint();
  return (
    <div className="auth-page">
      <aside className="auth-panel d-none d-md-flex" aria-hidden="true">
        {wide && idle ? (
          // The torus is decoration: if its chunk fails, the panel keeps the drawn ring and the form stays.
          <ErrorBoundary fallback={placeholder}>
            <Suspense fallback={placeholder}>
              <TorusCanvas />
            </Suspense>
          </ErrorBoundary>
        ) : (
          placeholder
        )}
        <div className="auth-panel-text">
          <div className="auth-brand">PipSense</div>
          <p>Your OANDA and MetaTrader trades, measured and explained.</p>
        </div>
      </aside>
      <main className="auth-main">
        {/* Below md the panel is hidden: the name stays above the form. */}
        <div className="auth-brand-compact d-md-none" aria-hidden="true">
          <img src="/favicon.svg" width={28} height={28} alt="" />
          PipSense
        </div>
        <CCard className="auth-card">
          <CCardBody className="p-4">{children}</CCardBody>
        </CCard>
      </main>
    </div>
  );
}

/**
 * False until the page has painted and the browser is idle (requestIdleCallback, at most 1 s after mount; a timer
 * where it is missing): the torus chunk is only requested once the form is on screen and answers input.
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let idle = 0;
    const frame = requestAnimationFrame(() => {
      idle =
        typeof window.requestIdleCallback === 'function'
          ? window.requestIdleCallback(() => setReady(true), { timeout: 1000 })
          : window.setTimeout(() => setReady(true), 200);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, []);
  return ready;
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
