import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { CButton, CCard, CCardBody } from '@coreui/react';
import { isChunkLoadError } from './chunk-load';

const reloadPage = () => window.location.reload();

interface BoundaryProps {
  children: ReactNode;
  /** What Reload does: a full page load, which fetches the current build's chunks. */
  onReload?: () => void;
}

interface ErrorBoundaryProps extends BoundaryProps {
  /** Shown instead of the error state: for parts of a screen that can go without (a decoration). */
  fallback?: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

/** Catches what a screen throws (a chunk that fails to load, a render error) and shows it with a Reload button. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(isChunkLoadError(error) ? error.message : 'Screen failed:', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    return <ScreenError error={error} onReload={this.props.onReload ?? reloadPage} />;
  }
}

/** The error state of a screen: what failed, the likely reason and a Reload button. */
function ScreenError({ error, onReload }: { error: Error; onReload: () => void }) {
  const chunk = isChunkLoadError(error);
  const [headline = error.message, ...details] = error.message.split('\n');
  return (
    <CCard className="screen-error" role="alert" aria-labelledby="screen-error-title">
      <CCardBody className="p-4">
        <h2 id="screen-error-title" className="h5 mb-2">
          {chunk ? 'This screen could not be loaded' : 'Something went wrong on this screen'}
        </h2>
        <p className="mb-1 fw-semibold">{chunk ? headline : error.message || error.name}</p>
        {chunk && details.length > 0 && (
          <p className="screen-error-detail small text-body-secondary mb-2">{details.join(' ')}</p>
        )}
        <p className="text-body-secondary mb-3">
          {chunk
            ? 'PipSense may have been updated since this tab was opened, or the connection dropped. Reload to get the current version.'
            : 'Reload the page to start this screen again.'}
        </p>
        <CButton color="primary" onClick={onReload}>
          Reload
        </CButton>
      </CCardBody>
    </CCard>
  );
}

/** One boundary per route: a new path starts with a clean slate, so one broken screen does not stick to the next. */
export function RouteErrorBoundary({ children, onReload }: BoundaryProps) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary key={pathname} onReload={onReload}>
      {children}
    </ErrorBoundary>
  );
}
