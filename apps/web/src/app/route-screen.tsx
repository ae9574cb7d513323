import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Route } from 'react-router';
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

/** The <Route> of a lazily loaded screen (a call, not a component: <Routes> takes <Route> elements only). */
export function screenRoute({ path, Screen }: { path: string; Screen: ComponentType }) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <RouteScreen>
          <Screen />
        </RouteScreen>
      }
    />
  );
}
