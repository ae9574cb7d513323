import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CCard, CCardBody } from '@coreui/react';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { MoneyFigure } from '@pipsense/contract';
import { EMPTY_CELL, moneyFigureParts, plClass } from '../../../components/data/format';
import { paths } from '../../../config/paths';
import { playbookPath, playbookReportQuery, playbooksQuery, type ReportFilters } from '../../../lib/playbooks-query';
import './playbooks-card.css';

function Money({ figure }: { figure: MoneyFigure | null }) {
  if (!figure) return <>{EMPTY_CELL}</>;
  return (
    <>
      {moneyFigureParts(figure).map((part) => (
        <span key={part.currency} className={`overview-pb-money ${plClass(part.amount)}`}>
          {part.text}
        </span>
      ))}
    </>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const rate = (value: number | null) => (value === null ? EMPTY_CELL : `${Number(value.toFixed(1))} %`);

/**
 * docs/PRODUCT.md, Overview, Playbooks: each playbook's trades, follow rate and net P/L in the Overview's date range
 * and account, with the net P/L of the trades that followed every rule beside those that broke one; each links to its
 * playbook. Nothing without a playbook.
 */
export function PlaybooksCard({ filters }: { filters: ReportFilters }) {
  const playbooks = useQuery(playbooksQuery());
  const list = playbooks.data ?? [];
  const reports = useQueries({ queries: list.map((p) => playbookReportQuery(p.id, filters)) });
  if (playbooks.isError)
    return (
      <CCard className="overview-pb mb-3" role="region" aria-labelledby="overview-pb-heading">
        <CCardBody>
          <h2 id="overview-pb-heading" className="h6">
            Playbooks
          </h2>
          <p className="text-danger small mb-0">Your playbooks could not be loaded: {playbooks.error.message}</p>
        </CCardBody>
      </CCard>
    );
  if (list.length === 0) return null;
  return (
    <CCard className="overview-pb mb-3" role="region" aria-labelledby="overview-pb-heading">
      <CCardBody>
        <div className="overview-pb-head">
          <h2 id="overview-pb-heading" className="h6 mb-0">
            Playbooks
          </h2>
          <Link to={paths.playbooks} className="small">
            Open Playbooks
          </Link>
        </div>
        <ul className="overview-pb-list">
          {list.map((playbook, i) => {
            const report = reports[i]!;
            const r = report.data;
            const titleId = `overview-pb-${playbook.id}`;
            return (
              <li key={playbook.id} className="overview-pb-item" aria-labelledby={titleId}>
                <Link id={titleId} to={playbookPath(playbook.id)} className="fw-semibold overview-pb-name">
                  {playbook.name}
                </Link>
                {report.isError ? (
                  <p className="text-danger small mb-0">The report could not be loaded: {report.error.message}</p>
                ) : (
                  <dl className="overview-pb-figures">
                    <Figure label="Trades">{r ? r.trades.toLocaleString('en-US') : '…'}</Figure>
                    <Figure label="Follow rate">{r ? rate(r.followRate) : '…'}</Figure>
                    <Figure label="Net P/L">{r ? <Money figure={r.netPL} /> : '…'}</Figure>
                    <Figure label="Followed all">{r ? <Money figure={r.followedAll.netPL} /> : '…'}</Figure>
                    <Figure label="Broke some">{r ? <Money figure={r.brokeSome.netPL} /> : '…'}</Figure>
                  </dl>
                )}
              </li>
            );
          })}
        </ul>
      </CCardBody>
    </CCard>
  );
}
