import type { PlaybookReport } from '@pipsense/contract';
import { EMPTY_CELL, formatMoneyFigure, formatR, moneyFigureParts, plClass } from '../../../components/data/format';
import { figureRows, formatFactor, formatRate } from '../model/report-figures';

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="pb-figure">
      <dt className="pb-figure-label">{label}</dt>
      <dd className="pb-figure-value mb-0">{children}</dd>
    </div>
  );
}

/** Money under the currency rule: one amount, or one per currency side by side, coloured by sign. */
function Money({ figure }: { figure: PlaybookReport['netPL'] }) {
  if (!figure) return <>{EMPTY_CELL}</>;
  return (
    <span className="pb-money" title={formatMoneyFigure(figure)}>
      {moneyFigureParts(figure).map((part) => (
        <span key={part.currency} className={plClass(part.amount)}>
          {part.text}
        </span>
      ))}
    </span>
  );
}

/** docs/review.md, The playbook report: the headline figures of the trades on the playbook in the range. */
export function ReportFigures({ report }: { report: PlaybookReport }) {
  return (
    <dl className="pb-figures" aria-label="Report figures">
      <Figure label="Trades">{report.trades.toLocaleString('en-US')}</Figure>
      <Figure label="Win rate">{formatRate(report.winRate)}</Figure>
      <Figure label="Net P/L">
        <Money figure={report.netPL} />
      </Figure>
      <Figure label="Profit factor">{formatFactor(report.profitFactor)}</Figure>
      <Figure label="Expectancy">
        <Money figure={report.expectancy} />
        <span className="text-body-secondary"> · {formatR(report.expectancyR)}</span>
      </Figure>
      <Figure label="Average R">{formatR(report.averageR)}</Figure>
      <Figure label="Follow rate">
        {formatRate(report.followRate)}
        <span className="text-body-secondary small"> of {report.reviewed.toLocaleString('en-US')} reviewed</span>
      </Figure>
      <Figure label="Missed">
        {report.missed.count.toLocaleString('en-US')}
        <span className="text-body-secondary small"> · would-be {formatR(report.missed.wouldBeR)}</span>
      </Figure>
    </dl>
  );
}

/** "Followed all rules" and "Broke at least one" side by side: the same figures in two columns. */
export function FollowedVsBroke({ report }: { report: PlaybookReport }) {
  const followed = figureRows(report.followedAll);
  const broke = figureRows(report.brokeSome);
  return (
    <table className="table table-sm pb-compare mb-0" aria-label="Followed all rules against broke at least one">
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Figure</span>
          </th>
          <th scope="col" className="text-end">
            Followed all rules
          </th>
          <th scope="col" className="text-end">
            Broke at least one
          </th>
        </tr>
      </thead>
      <tbody>
        {followed.map((row, i) => (
          <tr key={row.label}>
            <th scope="row" className="fw-normal text-body-secondary">
              {row.label}
            </th>
            <td className="text-end num">{row.value}</td>
            <td className="text-end num">{broke[i]?.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every rule reviewed against in the range, with how many reviewed trades broke it; retired rules say so. */
export function BrokenRules({ report }: { report: PlaybookReport }) {
  if (report.rules.length === 0)
    return <p className="text-body-secondary small mb-0">No reviewed trade in this range yet.</p>;
  const rules = [...report.rules].sort((a, b) => b.broken - a.broken);
  return (
    <ul className="pb-broken list-unstyled mb-0" aria-label="Rules broken">
      {rules.map((rule) => (
        <li key={rule.id}>
          <span className="pb-broken-text">
            {rule.text}
            {rule.retired && <span className="badge text-bg-light fw-normal ms-2">retired</span>}
          </span>
          <span className={`pb-broken-count text-nowrap${rule.broken > 0 ? ' text-danger' : ' text-body-secondary'}`}>
            {rule.broken === 0 ? 'never broken' : `broken ${rule.broken} ${rule.broken === 1 ? 'time' : 'times'}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
