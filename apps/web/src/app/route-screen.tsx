import { Suspense, type ReactNode } from 'react';
import { CSpinner } from '@coreui/react';
import { RouteErrorBoundary } from '../components/errors/route-error-boundary';

function ScreenLoading() {
  return (
    <div className="screen-loading" role="status">
      <CSpinner color="primary" size="sm" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

/** A route's screen: loaded on demand, with its own error boundary (a chunk that fails shows Reload, not a blank app). */
export function RouteScreen({ children }: { children: ReactNode }) {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<ScreenLoading />}>{children}</Suspense>
    </RouteErrorBoundary>
  );
}
