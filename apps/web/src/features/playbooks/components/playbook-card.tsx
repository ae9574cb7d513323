import { Link } from 'react-router';
import { CBadge, CButton, CCard, CCardBody, CCardHeader } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil, cilTrash } from '@coreui/icons';
import type { Playbook } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';
import { playbookPath } from '../../../lib/playbooks-query';
import { countOf, followRateOf } from '../model/playbook-view';
import { formatRate } from '../model/report-figures';

/** One playbook in the list: instruments, sessions, how many trades it has and how often they followed it. */
export function PlaybookCard({
  playbook,
  onEdit,
  onDelete,
}: {
  playbook: Playbook;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const titleId = `playbook-${playbook.id}`;
  const { counts } = playbook;
  const rules = playbook.groups.reduce((n, g) => n + g.rules.length, 0);
  return (
    <CCard className="pb-card" role="region" aria-labelledby={titleId}>
      <CCardHeader className="pb-card-head">
        <h2 id={titleId} className="h6 mb-0 pb-card-name">
          <Link to={playbookPath(playbook.id)}>{playbook.name}</Link>
        </h2>
        <span className="pb-card-actions">
          <CButton size="sm" color="secondary" variant="ghost" aria-label={`Edit ${playbook.name}`} onClick={onEdit}>
            <CIcon icon={cilPencil} />
          </CButton>
          <CButton size="sm" color="danger" variant="ghost" aria-label={`Delete ${playbook.name}`} onClick={onDelete}>
            <CIcon icon={cilTrash} />
          </CButton>
        </span>
      </CCardHeader>
      <CCardBody>
        <div className="pb-card-tags">
          {playbook.instruments.length === 0 ? (
            <span className="text-body-secondary small">Any instrument</span>
          ) : (
            playbook.instruments.map((i) => (
              <CBadge key={i} color="secondary" shape="rounded-pill" className="fw-normal">
                {formatInstrument(i)}
              </CBadge>
            ))
          )}
          {playbook.sessions.map((s) => (
            <CBadge key={s} color="info" shape="rounded-pill" className="fw-normal">
              {s}
            </CBadge>
          ))}
        </div>
        <dl className="pb-card-figures">
          <div>
            <dt>Trades</dt>
            <dd>{counts.trades.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Reviewed</dt>
            <dd>{counts.reviewed.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Follow rate</dt>
            <dd>{formatRate(followRateOf(counts))}</dd>
          </div>
          <div>
            <dt>Missed</dt>
            <dd>{counts.missed.toLocaleString('en-US')}</dd>
          </div>
        </dl>
        <div className="text-body-secondary small">
          {countOf(rules, 'rule')} in {countOf(playbook.groups.length, 'group')}
          {playbook.defaultRiskPct !== null && <> · risk {playbook.defaultRiskPct} % a trade</>}
        </div>
      </CCardBody>
    </CCard>
  );
}
