import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CButton, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilLinkBroken, cilSettings, cilWarning, cilInbox } from '@coreui/icons';
import { paths } from '../../config/paths';

function StatePanel({
  icon,
  tone = 'secondary',
  title,
  children,
  role,
}: {
  icon: string[];
  tone?: 'secondary' | 'danger' | 'warning' | 'primary';
  title: string;
  children?: ReactNode;
  role?: 'status' | 'alert';
}) {
  return (
    <div className="data-state text-center" role={role}>
      <div className={`data-state-icon text-${tone}`} aria-hidden="true">
        <CIcon icon={icon} size="xxl" />
      </div>
      <h3 className="h5 mb-2">{title}</h3>
      {children}
    </div>
  );
}

/** MetaTrader and TradeView are listed but have no service: say so instead of sending a request that must fail. */
export function NotConnectedState({
  platform,
  what,
  onShowOanda,
}: {
  platform: string;
  what: string;
  onShowOanda: () => void;
}) {
  return (
    <StatePanel icon={cilLinkBroken} title={`${platform} is not connected`} role="status">
      <p className="text-body-secondary mx-auto data-state-text">
        PipSense cannot read {what} from {platform} yet. OANDA is the platform it syncs your {what} from.
      </p>
      <CButton color="primary" variant="outline" onClick={onShowOanda}>
        Show OANDA {what}
      </CButton>
    </StatePanel>
  );
}

const CONNECT_OANDA_MESSAGE = 'Connect your OANDA account in Settings → Trading Platforms first.';

/** No OANDA configuration is saved (the server said so, or get_info shows no token): point to where it is set. */
export function ConfigureOandaState({ message = CONNECT_OANDA_MESSAGE }: { message?: string }) {
  return (
    <StatePanel icon={cilSettings} tone="primary" title="Connect OANDA first" role="status">
      <p className="text-body-secondary mx-auto data-state-text">{message}</p>
      <CButton as={Link} to={paths.tradingPlatforms} color="primary">
        Go to Settings → Trading Platforms
      </CButton>
    </StatePanel>
  );
}

/** A list that could not be loaded, with the server's message and a way to try again. */
export function LoadErrorState({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <StatePanel icon={cilWarning} tone="danger" title={`Your ${what} could not be loaded`} role="alert">
      <p className="text-body-secondary mx-auto data-state-text">{message}</p>
      <CButton color="danger" variant="outline" onClick={onRetry}>
        Try again
      </CButton>
    </StatePanel>
  );
}

/**
 * docs/PRODUCT.md, Trade list and Account list: 'No trades found' / 'No accounts found', with a hint that a sync fills
 * the list (or an import: `action`).
 */
export function EmptyState({ title, hint, action }: { title: string; hint: string; action?: ReactNode }) {
  return (
    <StatePanel icon={cilInbox} title={title} role="status">
      <p className={`text-body-secondary mx-auto data-state-text ${action ? 'mb-3' : 'mb-0'}`}>{hint}</p>
      {action}
    </StatePanel>
  );
}

/** An imported platform's empty list: 'No MetaTrader trades yet. Import a MetaTrader 4/5 report.' */
export const importedEmptyText = (platform: string, what: string) => ({
  title: `No ${platform} ${what} yet`,
  hint: 'Import a MetaTrader 4/5 report.',
});

/** A spinner over a table whose rows are being replaced (page change, refetch after a sync). */
export function FetchingOverlay({ label }: { label: string }) {
  return (
    <div className="fetching-overlay" role="status" aria-label={label}>
      <CSpinner color="primary" aria-hidden="true" />
    </div>
  );
}
