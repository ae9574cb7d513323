import { Link } from 'react-router';
import { CBadge, CButton, CCallout } from '@coreui/react';
import { paths } from '../../../config/paths';
import { ImportButton } from '../../../components/data/import-button';
import { useOandaConnection } from '../../../components/data/use-oanda-connection';

/**
 * With no trades the cards can only show '-': say what fills them. The OANDA step is marked done once a token is
 * saved, so a connected user sees that the Sync buttons are what is left.
 */
export function NoTradesCallout() {
  const connection = useOandaConnection(true);
  const connected = connection.data === true;
  return (
    <CCallout color="primary" className="no-trades-callout bg-body mb-4" role="status">
      <h3 className="h6 mb-1">No trades yet</h3>
      <p className="text-body-secondary mb-2">The cards and charts fill in once your OANDA trades are synced.</p>
      <ol className="no-trades-steps mb-0">
        <li>
          <span>
            Connect OANDA in <strong>Settings → Trading Platforms</strong>
          </span>
          {connected ? (
            <CBadge color="success" shape="rounded-pill">
              Done
            </CBadge>
          ) : (
            <CButton as={Link} to={paths.tradingPlatforms} color="primary" size="sm">
              Open Trading Platforms
            </CButton>
          )}
        </li>
        <li>
          <span>
            Press <strong>Sync</strong> on Trades
          </span>
          <CButton as={Link} to={paths.trades} color="primary" variant="outline" size="sm">
            Open Trades
          </CButton>
        </li>
        <li>
          <span>
            Press <strong>Sync</strong> on Accounts
          </span>
          <CButton as={Link} to={paths.accounts} color="primary" variant="outline" size="sm">
            Open Accounts
          </CButton>
        </li>
      </ol>
    </CCallout>
  );
}

/** MetaTrader's trades come from the terminal's reports: one import fills the cards. */
export function NoImportedTradesCallout() {
  return (
    <CCallout color="primary" className="no-trades-callout bg-body mb-4" role="status">
      <h3 className="h6 mb-1">No MetaTrader trades yet</h3>
      <p className="text-body-secondary mb-2">
        Import a MetaTrader 4/5 report (the terminal's account history) and the cards and charts fill in.
      </p>
      <ImportButton />
    </CCallout>
  );
}
