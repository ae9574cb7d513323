import { useId, useState, type ReactNode } from 'react';
import {
  CAlert,
  CBadge,
  CButton,
  CCard,
  CCardBody,
  CCardHeader,
  CFormCheck,
  CFormInput,
  CSpinner,
  CTable,
  CTableBody,
  CTableDataCell,
  CTableHead,
  CTableHeaderCell,
  CTableRow,
} from '@coreui/react';
import type { ImportConfirmBody, ImportUploadResponse, Mode } from '@pipsense/contract';
import { EMPTY_CELL, formatDateTime, plClass } from '../../../components/data/format';
import {
  changedContractSizes,
  contractSizeProblem,
  FORMAT_LABELS,
  formatMoney,
  netProfitCheck,
} from '../model/preview';
import { serverTimeLabel } from '../model/broker-time';

interface PreviewStepProps {
  upload: ImportUploadResponse;
  fileName: string;
  onConfirm: (body: ImportConfirmBody) => void;
  onCancel: () => void;
  confirming: boolean;
  cancelling: boolean;
}

const text = (value: string | null) => (value === null || value === '' ? EMPTY_CELL : value);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="detail-item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The report's total against PipSense's sum: ✓ matches, ⚠ differs by X, or no total to compare with. */
function NetProfit({ netProfit, reportNetProfit }: { netProfit: string; reportNetProfit: string | null }) {
  const check = netProfitCheck({ netProfit, reportNetProfit });
  return (
    <>
      <span className={`num fw-semibold ${plClass(netProfit)}`}>{formatMoney(netProfit)}</span>{' '}
      {check.kind === 'matches' && <span className="text-success">✓ matches the report&apos;s total</span>}
      {check.kind === 'differs' && (
        <span className="text-warning-emphasis">
          ⚠ differs from the report&apos;s {formatMoney(reportNetProfit)} by {check.difference}
        </span>
      )}
      {check.kind === 'no-total' && <span className="text-body-secondary">(the report gives no total)</span>}
    </>
  );
}

/** Step 3: what the report holds, before anything is stored; Confirm import or Cancel. */
export function PreviewStep({ upload, fileName, onConfirm, onCancel, confirming, cancelling }: PreviewStepProps) {
  const { preview, format } = upload;
  const { account } = preview;
  const modeName = useId();
  const [mode, setMode] = useState<Mode | null>(null);
  const [sizes, setSizes] = useState<Record<string, string>>(() =>
    Object.fromEntries(preview.contractSizes.map((s) => [s.symbol, s.contractSize])),
  );
  const sizeProblems = Object.fromEntries(
    preview.contractSizes.map((s) => [s.symbol, contractSizeProblem(sizes[s.symbol] ?? '')]),
  );
  const needsMode = account.mode === null;
  const blocked =
    (needsMode && mode === null) || Object.values(sizeProblems).some((p) => p !== null) || confirming || cancelling;

  const confirm = () => {
    const changed = changedContractSizes(preview.contractSizes, sizes);
    onConfirm({
      ...(needsMode && mode ? { mode } : {}),
      ...(Object.keys(changed).length > 0 ? { contractSizes: changed } : {}),
    });
  };

  return (
    <div className="import-preview">
      <CCard className="mb-4 import-card">
        <CCardHeader className="d-flex flex-wrap align-items-center gap-2">
          <h2 className="h5 mb-0 me-auto">Preview of {fileName}</h2>
          <CBadge color="info" shape="rounded-pill">
            {FORMAT_LABELS[format]}
          </CBadge>
        </CCardHeader>
        <CCardBody>
          <section aria-label="Account" className="mb-4">
            <h3 className="h6 fw-semibold mb-2">Account</h3>
            <dl className="detail-list mb-0">
              <Fact label="Account number">{text(account.number)}</Fact>
              <Fact label="Name">{text(account.name)}</Fact>
              <Fact label="Broker">{text(account.broker)}</Fact>
              <Fact label="Server">{text(account.server)}</Fact>
              <Fact label="Currency">{text(account.currency)}</Fact>
              <Fact label="Leverage">{text(account.leverage)}</Fact>
              {account.mode !== null && <Fact label="Mode">{account.mode === 'live' ? 'Live' : 'Demo'}</Fact>}
            </dl>
          </section>
          <section aria-label="Report" className="mb-0">
            <h3 className="h6 fw-semibold mb-2">What the report holds</h3>
            <dl className="detail-list mb-0">
              <Fact label="Closed trades">{preview.closedTrades.toLocaleString()}</Fact>
              <Fact label="Open trades">{preview.openTrades.toLocaleString()}</Fact>
              <Fact label="Balance operations">{preview.balanceOperations.toLocaleString()}</Fact>
              <Fact label="Rows skipped">{preview.skipped.length.toLocaleString()}</Fact>
              <Fact label="From">{formatDateTime(preview.from)}</Fact>
              <Fact label="To">{formatDateTime(preview.to)}</Fact>
              <Fact label="Net P/L">
                <NetProfit netProfit={preview.netProfit} reportNetProfit={preview.reportNetProfit} />
              </Fact>
              <Fact label="Server time">
                {serverTimeLabel(preview)}{' '}
                <span className="text-body-secondary small">
                  (times converted to UTC with it; pick another server time and read the file again to change it)
                </span>
              </Fact>
            </dl>
            {preview.reportTotalExplained && (
              <p className="small text-body-secondary mt-2 mb-0" aria-label="Why the totals differ">
                {preview.reportTotalExplained}
              </p>
            )}
            {preview.warnings.length > 0 && (
              <CAlert color="warning" className="mt-3 mb-0 py-2 small" aria-label="What PipSense assumed">
                <div className="fw-semibold mb-1">Check before you confirm: PipSense had to assume</div>
                <ul className="mb-0 ps-3">
                  {preview.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </CAlert>
            )}
            {preview.skipped.length > 0 && (
              <details className="mt-3">
                <summary>Why rows were skipped</summary>
                <ul className="list-unstyled small mb-0 mt-2 import-skipped" aria-label="Skipped rows">
                  {preview.skipped.map((s) => (
                    <li key={`${s.row}:${s.reason}`}>
                      <span className="fw-semibold">Row {s.row}:</span> {s.reason}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </section>
        </CCardBody>
      </CCard>

      {needsMode && (
        <CCard className="mb-4 import-card">
          <CCardBody>
            <fieldset>
              <legend className="h6 fw-semibold">Is this a demo or a live account?</legend>
              <p className="text-body-secondary small mb-2">
                The report does not say. PipSense remembers your answer for this account.
              </p>
              <CFormCheck
                inline
                type="radio"
                name={modeName}
                id={`${modeName}-demo`}
                label="Demo"
                checked={mode === 'demo'}
                onChange={() => setMode('demo')}
              />
              <CFormCheck
                inline
                type="radio"
                name={modeName}
                id={`${modeName}-live`}
                label="Live"
                checked={mode === 'live'}
                onChange={() => setMode('live')}
              />
            </fieldset>
          </CCardBody>
        </CCard>
      )}

      {preview.contractSizes.length > 0 && (
        <CCard className="mb-4 import-card">
          <CCardHeader>
            <h3 className="h6 mb-0">Contract sizes</h3>
          </CCardHeader>
          <CCardBody className="pb-0">
            <p className="text-body-secondary small">
              Units per lot, to turn lots into units. Check the highlighted ones: PipSense does not know those symbols
              and guessed. A change is remembered for your next imports.
            </p>
          </CCardBody>
          <CTable responsive align="middle" className="mb-0" aria-label="Contract sizes">
            <CTableHead>
              <CTableRow>
                <CTableHeaderCell scope="col">Symbol</CTableHeaderCell>
                <CTableHeaderCell scope="col">Instrument</CTableHeaderCell>
                <CTableHeaderCell scope="col">Units per lot</CTableHeaderCell>
              </CTableRow>
            </CTableHead>
            <CTableBody>
              {preview.contractSizes.map((s) => (
                <CTableRow key={s.symbol} color={s.known ? undefined : 'warning'}>
                  <CTableDataCell className="text-nowrap">
                    {s.symbol}{' '}
                    {!s.known && (
                      <CBadge color="warning" textColor="dark">
                        Check
                      </CBadge>
                    )}
                  </CTableDataCell>
                  <CTableDataCell className="text-nowrap">{s.instrument}</CTableDataCell>
                  <CTableDataCell>
                    <CFormInput
                      size="sm"
                      inputMode="decimal"
                      className="import-size-input"
                      aria-label={`Units per lot of ${s.symbol}`}
                      value={sizes[s.symbol] ?? ''}
                      invalid={sizeProblems[s.symbol] !== null}
                      feedbackInvalid={sizeProblems[s.symbol] ?? undefined}
                      disabled={confirming}
                      onChange={(event) => setSizes((prev) => ({ ...prev, [s.symbol]: event.target.value }))}
                    />
                  </CTableDataCell>
                </CTableRow>
              ))}
            </CTableBody>
          </CTable>
        </CCard>
      )}

      <CCard className="mb-4 import-card">
        <CCardHeader>
          <h3 className="h6 mb-0">
            First {preview.sample.length.toLocaleString()} of {preview.closedTrades.toLocaleString()} closed trades
          </h3>
        </CCardHeader>
        <CTable responsive hover align="middle" className="mb-0 data-table" aria-label="Sample trades">
          <CTableHead>
            <CTableRow>
              {[
                'Ticket',
                'Symbol',
                'Side',
                'Lots',
                'Opened',
                'Open Price',
                'Closed',
                'Close Price',
                'S/L',
                'T/P',
                'Commission',
                'Swap',
                'Profit',
              ].map((label) => (
                <CTableHeaderCell key={label} scope="col" className="text-nowrap">
                  {label}
                </CTableHeaderCell>
              ))}
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {preview.sample.map((t) => (
              <CTableRow key={t.tradeId}>
                <CTableDataCell className="text-nowrap">{t.tradeId}</CTableDataCell>
                <CTableDataCell className="text-nowrap">{t.symbol}</CTableDataCell>
                <CTableDataCell>{t.side === 'buy' ? 'Buy' : 'Sell'}</CTableDataCell>
                <CTableDataCell className="text-end num">{t.lots}</CTableDataCell>
                <CTableDataCell className="text-nowrap">{formatDateTime(t.openTime)}</CTableDataCell>
                <CTableDataCell className="text-end num">{t.price}</CTableDataCell>
                <CTableDataCell className="text-nowrap">{formatDateTime(t.closeTime)}</CTableDataCell>
                <CTableDataCell className="text-end num">{text(t.averageClosePrice)}</CTableDataCell>
                <CTableDataCell className="text-end num">{text(t.stopLossPrice)}</CTableDataCell>
                <CTableDataCell className="text-end num">{text(t.takeProfitPrice)}</CTableDataCell>
                <CTableDataCell className="text-end num">{formatMoney(t.commission)}</CTableDataCell>
                <CTableDataCell className="text-end num">{formatMoney(t.swap)}</CTableDataCell>
                <CTableDataCell className={`text-end num ${plClass(t.realizedPL)}`}>
                  {formatMoney(t.realizedPL)}
                </CTableDataCell>
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      </CCard>

      <div className="d-flex flex-wrap justify-content-end gap-2 mb-4">
        {needsMode && mode === null && (
          <span className="text-body-secondary small align-self-center me-auto">Choose Demo or Live to import.</span>
        )}
        <CButton color="secondary" variant="outline" disabled={confirming || cancelling} onClick={onCancel}>
          {cancelling && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Cancel
        </CButton>
        <CButton color="primary" disabled={blocked} onClick={confirm}>
          {confirming && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Confirm import
        </CButton>
      </div>
    </div>
  );
}
