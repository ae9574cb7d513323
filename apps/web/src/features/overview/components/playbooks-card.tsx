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
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0 overview-pb-table">
            <thead>
              <tr>
                <th scope="col">Playbook</th>
                <th scope="col" className="text-end">
                  Trades
                </th>
                <th scope="col" className="text-end">
                  Follow rate
                </th>
                <th scope="col" className="text-end">
                  Net P/L
                </th>
                <th scope="col" className="text-end overview-pb-split">
                  Followed all
                </th>
                <th scope="col" className="text-end overview-pb-split">
                  Broke some
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((playbook, i) => {
                const report = reports[i]!;
                const r = report.data;
                return (
                  <tr key={playbook.id}>
                    <th scope="row" className="fw-semibold overview-pb-name">
                      <Link to={playbookPath(playbook.id)}>{playbook.name}</Link>
                    </th>
                    {report.isError ? (
                      <td colSpan={5} className="text-danger small">
                        Not loaded: {report.error.message}
                      </td>
                    ) : (
                      <>
                        <td className="text-end num">{r ? r.trades.toLocaleString('en-US') : '…'}</td>
                        <td className="text-end num">{r ? rate(r.followRate) : '…'}</td>
                        <td className="text-end num">{r ? <Money figure={r.netPL} /> : '…'}</td>
                        <td className="text-end num overview-pb-split">
                          {r ? <Money figure={r.followedAll.netPL} /> : '…'}
                        </td>
                        <td className="text-end num overview-pb-split">
                          {r ? <Money figure={r.brokeSome.netPL} /> : '…'}
                        </td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </CCardBody>
    </CCard>
  );
}
