import { Link } from 'react-router';
import { CButton, CCard, CCardBody, CTable } from '@coreui/react';
import type { TagFacts } from '@pipsense/contract';
import { paths } from '../../../config/paths';
import { tagGroups, rText } from '../model/by-tag';
import { signedMoney } from '../model/chart-data';

const tone = (value: number | null) =>
  value === null || value === 0 ? '' : value > 0 ? 'text-success' : 'text-danger';

function TagRows({ rows, onFilter }: { rows: TagFacts[]; onFilter: (tagId: string) => void }) {
  return (
    <>
      {rows.map((t) => (
        <tr key={t.tagId}>
          <th scope="row" className="fw-normal">
            <CButton
              color="link"
              size="sm"
              className="p-0 by-tag-name"
              title={`Show the overview of ${t.name} only`}
              onClick={() => onFilter(t.tagId)}
            >
              {t.name}
            </CButton>
          </th>
          <td>{t.trades.toLocaleString()}</td>
          <td>{t.winRate === null ? '-' : `${t.winRate.toFixed(1)}%`}</td>
          <td className={tone(t.netPL)}>{signedMoney(t.netPL)}</td>
          <td className={tone(t.expectancy)}>{t.expectancy === null ? '-' : signedMoney(t.expectancy)}</td>
          <td className={tone(t.averageR)}>
            {rText(t.averageR)}
            <span className="by-tag-r-base">
              {t.withInitialStop === t.trades ? '' : `${t.withInitialStop} of ${t.trades} with a stop`}
            </span>
          </td>
        </tr>
      ))}
    </>
  );
}

/**
 * Which setups pay and what mistakes cost: per tag its closed trades, win rate, net P/L, expectancy and average R
 * (over the trades with an initial stop). A tag's name slices the whole overview by it.
 */
export function ByTagCard({
  byTag,
  onFilterTag,
}: {
  byTag: readonly TagFacts[];
  onFilterTag: (tagId: string) => void;
}) {
  const groups = tagGroups(byTag);
  return (
    <CCard className="by-tag-card mb-3" role="region" aria-labelledby="by-tag-title">
      <CCardBody>
        <h3 id="by-tag-title" className="chart-card-title">
          By Tag
        </h3>
        <p className="chart-card-note">
          Closed trades per journal tag; average R counts the trades with an initial stop
        </p>
        {groups.length === 0 ? (
          <p className="overview-chart-empty mb-0">
            {/* One inline box: the flex container would drop the space before the link. */}
            <span>
              No tagged trades here yet. Tag trades in their details on the Trades screen, or{' '}
              <Link to={paths.journalTags}>manage your tags</Link>.
            </span>
          </p>
        ) : (
          <div className="table-responsive">
            <CTable small hover className="by-tag-table mb-0" aria-label="Results by tag">
              <thead>
                <tr>
                  <th scope="col">Tag</th>
                  <th scope="col">Trades</th>
                  <th scope="col">Win rate</th>
                  <th scope="col">Net P/L</th>
                  <th scope="col">Expectancy</th>
                  <th scope="col">Avg R</th>
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.kind} aria-label={group.title}>
                  <tr className="by-tag-group">
                    <th colSpan={6} scope="rowgroup">
                      {group.title} <span className="fw-normal text-body-secondary">· {group.note}</span>
                    </th>
                  </tr>
                  <TagRows rows={group.rows} onFilter={onFilterTag} />
                </tbody>
              ))}
            </CTable>
          </div>
        )}
      </CCardBody>
    </CCard>
  );
}
