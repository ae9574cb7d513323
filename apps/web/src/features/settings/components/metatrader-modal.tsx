import { useId } from 'react';
import { Link } from 'react-router';
import {
  CBadge,
  CButton,
  CListGroup,
  CListGroupItem,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import type { AccountItem, InfoRecord } from '@pipsense/contract';
import { formatDecimal } from '../../../components/data/format';
import { paths } from '../../../config/paths';
import { useSaveInfo } from '../api/info-api';
import { METATRADER_LABEL } from '../model/platforms';

interface MetaTraderModalProps {
  visible: boolean;
  record: InfoRecord;
  /** The imported MetaTrader accounts; undefined while they load, null when they could not be loaded. */
  accounts: readonly AccountItem[] | undefined | null;
  onClose: () => void;
}

function AccountLine({ account }: { account: AccountItem }) {
  const parts = [account.server, account.broker, account.currency].filter(Boolean);
  return (
    <CListGroupItem className="d-flex flex-wrap justify-content-between gap-2">
      <span>
        <span className="fw-semibold">{account.login}</span>
        {account.alias && <span className="text-body-secondary"> · {account.alias}</span>}
        <span className="d-block small text-body-secondary">{parts.join(' · ')}</span>
      </span>
      <span className="text-nowrap small align-self-center">
        <CBadge color={account.mode === 'live' ? 'danger' : 'secondary'} className="me-2">
          {account.mode === 'live' ? 'Live' : 'Demo'}
        </CBadge>
        {account.balance !== null && `Balance ${formatDecimal(account.balance, 2)}`}
      </span>
    </CListGroupItem>
  );
}

/**
 * MetaTrader is not connected but imported. The modal says which report to export and how, lists the
 * imported accounts, links to the import, and offers 'Make Default' once an import exists.
 */
export function MetaTraderModal({ visible, record, accounts, onClose }: MetaTraderModalProps) {
  const titleId = useId();
  const save = useSaveInfo();
  const isDefault = record.default_trading_platfrom === METATRADER_LABEL;
  const imported = (accounts?.length ?? 0) > 0;

  return (
    <CModal visible={visible} onClose={onClose} alignment="center" size="lg" scrollable aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>MetaTrader 4/5 Configuration</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <p>
          There is nothing to connect: PipSense reads your MetaTrader trades from the account history report the
          terminal saves. Import a new report whenever you want the journal brought up to date; trades already imported
          are never duplicated.
        </p>
        <h2 className="h6 mb-2">Export the report</h2>
        <ul className="small mb-3">
          <li>
            <strong>MetaTrader 4:</strong> open the Terminal window (Ctrl+T), tab <em>Account History</em>, right-click
            → <em>All History</em> (or a custom period), then right-click → <em>Save as Detailed Report</em>. Import the
            .htm file it saves.
          </li>
          <li>
            <strong>MetaTrader 5:</strong> open the Toolbox (Ctrl+T), tab <em>History</em>, right-click →{' '}
            <em>Positions</em> and the period, then right-click → <em>Report</em> → <em>HTML</em> or{' '}
            <em>Open XML (MS Office Excel 2007)</em>. Import the .html or .xlsx file.
          </li>
          <li>
            <strong>Other platforms and journals:</strong> a CSV export; PipSense asks which column is which the first
            time.
          </li>
        </ul>
        <p className="small text-body-secondary">
          Report times are the broker&apos;s server time: the import asks for its UTC offset (most brokers run at UTC+2,
          UTC+3 in summer) and remembers it per account.
        </p>
        <h2 className="h6 mb-2 d-flex align-items-center gap-2">
          Imported accounts
          {isDefault && <CBadge color="primary">Your default</CBadge>}
        </h2>
        {accounts === undefined && (
          <p className="text-body-secondary small mb-0" role="status">
            <CSpinner size="sm" className="me-2" aria-hidden="true" />
            Loading the imported accounts…
          </p>
        )}
        {accounts === null && (
          <p className="text-danger small mb-0" role="alert">
            The imported accounts could not be loaded.
          </p>
        )}
        {accounts && accounts.length === 0 && (
          <p className="text-body-secondary small mb-0">No MetaTrader report imported yet.</p>
        )}
        {accounts && accounts.length > 0 && (
          <CListGroup aria-label="Imported MetaTrader accounts">
            {accounts.map((account) => (
              <AccountLine key={account.id} account={account} />
            ))}
          </CListGroup>
        )}
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onClose} disabled={save.isPending}>
          Close
        </CButton>
        {imported && !isDefault && (
          <CButton
            color="primary"
            variant="outline"
            disabled={save.isPending}
            onClick={() =>
              save.mutate({ ...record, default_trading_platfrom: METATRADER_LABEL }, { onSuccess: onClose })
            }
          >
            {save.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Make Default
          </CButton>
        )}
        <CButton as={Link} to={paths.tradesImport} color="primary">
          Import a report
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
