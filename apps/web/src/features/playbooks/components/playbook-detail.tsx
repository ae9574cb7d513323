import { useState } from 'react';
import { Link } from 'react-router';
import { CButton, CCard, CCardBody, CCol, CFormInput, CFormLabel, CFormSelect, CRow, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilArrowLeft, cilPencil } from '@coreui/icons';
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Playbook } from '@pipsense/contract';
import { AttachmentsPanel } from '../../../components/attachments/attachments-panel';
import { formatInstrument } from '../../../components/data/format';
import { platformScope } from '../../../components/data/platform-scope';
import { NoteText } from '../../../components/journal/note-text';
import { paths } from '../../../config/paths';
import { queryKeys } from '../../../lib/query-keys';
import { accountChoices } from '../../../lib/account-choices';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import type { ReportFilters } from '../../../lib/playbooks-query';
import { playbookReportQuery } from '../api/playbooks-api';
import { BrokenRules, FollowedVsBroke, ReportFigures } from './report-figures';

/** The platforms whose accounts hold trades a playbook can be assigned. */
const SCOPES = [platformScope('OANDA'), platformScope('MetaTrader')].filter((scope) => scope.base !== null);

/** A picked day (YYYY-MM-DD, the trader's own) as the start or the last instant of that local day. */
const dayBound = (day: string, end: boolean) =>
  day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString() : undefined;

function useAccountChoices() {
  const lists = useQueries({
    queries: SCOPES.map((scope) => accountsOfPlatformQuery(scope.base ?? '', scope.params.platform)),
  });
  return accountChoices(lists.flatMap((list) => list.data?.data ?? []));
}

function Report({ playbook }: { playbook: Playbook }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [accountId, setAccountId] = useState('');
  const accounts = useAccountChoices();
  const inverted = from !== '' && to !== '' && from > to;
  const filters: ReportFilters = {
    ...(from ? { from: dayBound(from, false) } : {}),
    ...(to ? { to: dayBound(to, true) } : {}),
    ...(accountId ? { accountId } : {}),
  };
  const report = useQuery({
    ...playbookReportQuery(playbook.id, filters),
    enabled: !inverted,
    placeholderData: keepPreviousData,
  });

  return (
    <section aria-labelledby="pb-report-title" className="mb-3">
      <CCard>
        <CCardBody>
          <div className="pb-section-head">
            <h3 id="pb-report-title" className="h6 mb-0">
              Report
            </h3>
            {report.isFetching && <CSpinner size="sm" color="primary" aria-label="Updating the report" />}
          </div>
          <CRow className="g-2 mb-3 pb-report-filters" role="search" aria-label="Report filters">
            <CCol xs={6} md={3}>
              <CFormLabel htmlFor="pb-from" className="small mb-1">
                Opened from
              </CFormLabel>
              <CFormInput
                id="pb-from"
                type="date"
                size="sm"
                value={from}
                invalid={inverted}
                onChange={(e) => setFrom(e.target.value)}
              />
            </CCol>
            <CCol xs={6} md={3}>
              <CFormLabel htmlFor="pb-to" className="small mb-1">
                Opened to
              </CFormLabel>
              <CFormInput
                id="pb-to"
                type="date"
                size="sm"
                value={to}
                invalid={inverted}
                onChange={(e) => setTo(e.target.value)}
              />
            </CCol>
            <CCol xs={12} md={6}>
              <CFormLabel htmlFor="pb-account" className="small mb-1">
                Account
              </CFormLabel>
              <CFormSelect id="pb-account" size="sm" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
                <option value="">All accounts</option>
                {accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.label}
                  </option>
                ))}
              </CFormSelect>
            </CCol>
            {inverted && (
              <CCol xs={12}>
                <p className="text-danger small mb-0" role="alert">
                  The ‘from’ day is after the ‘to’ day: pick a from day on or before the to day.
                </p>
              </CCol>
            )}
          </CRow>
          {report.isError ? (
            <p className="text-danger small mb-0" role="alert">
              The report could not be loaded: {report.error.message}
            </p>
          ) : !report.data ? (
            <div className="pb-loading" role="status" aria-label="Loading the report">
              <CSpinner color="primary" aria-hidden="true" />
            </div>
          ) : (
            <>
              <ReportFigures report={report.data} />
              <CRow className="g-3 mt-1">
                <CCol xs={12} lg={7}>
                  <h4 className="h6 fw-semibold">Followed all rules against broke at least one</h4>
                  <div className="table-responsive">
                    <FollowedVsBroke report={report.data} />
                  </div>
                </CCol>
                <CCol xs={12} lg={5}>
                  <h4 className="h6 fw-semibold">Rules broken</h4>
                  <BrokenRules report={report.data} />
                </CCol>
              </CRow>
            </>
          )}
        </CCardBody>
      </CCard>
    </section>
  );
}

/**
 * docs/PRODUCT.md, Playbooks: one playbook opened: its description (markdown kept as text), its checklist, its report
 * and its images.
 */
export function PlaybookDetail({ playbook, onEdit }: { playbook: Playbook; onEdit: () => void }) {
  const queryClient = useQueryClient();
  return (
    <div className="pb-detail">
      <div className="pb-detail-head">
        <Link to={paths.playbooks} className="small">
          <CIcon icon={cilArrowLeft} size="sm" className="me-1" aria-hidden="true" />
          All playbooks
        </Link>
        <h2 className="h5 mb-0 pb-detail-name">{playbook.name}</h2>
        <CButton size="sm" color="secondary" variant="outline" onClick={onEdit}>
          <CIcon icon={cilPencil} className="me-1" aria-hidden="true" />
          Edit
        </CButton>
      </div>
      <p className="text-body-secondary small mb-3">
        {playbook.instruments.length > 0 ? playbook.instruments.map(formatInstrument).join(', ') : 'Any instrument'}
        {playbook.sessions.length > 0 && <> · {playbook.sessions.join(', ')}</>}
        {playbook.defaultRiskPct !== null && <> · risk {playbook.defaultRiskPct} % a trade</>}
      </p>
      <Report playbook={playbook} />
      <CRow className="g-3">
        <CCol xs={12} lg={6}>
          <CCard className="h-100">
            <CCardBody>
              <h3 className="h6">Rules</h3>
              {playbook.groups.length === 0 ? (
                <p className="text-body-secondary small mb-0">
                  No rules yet: edit the playbook to write its checklist.
                </p>
              ) : (
                playbook.groups.map((group) => (
                  <div key={group.id} className="pb-rule-group">
                    <h4 className="h6 small text-uppercase text-body-secondary mb-1">{group.name}</h4>
                    <ul className="mb-2 ps-3">
                      {group.rules.map((rule) => (
                        <li key={rule.id}>{rule.text}</li>
                      ))}
                    </ul>
                  </div>
                ))
              )}
            </CCardBody>
          </CCard>
        </CCol>
        <CCol xs={12} lg={6}>
          <CCard className="h-100">
            <CCardBody>
              <h3 className="h6">Description</h3>
              {playbook.description.trim() === '' ? (
                <p className="text-body-secondary small mb-0">No description.</p>
              ) : (
                <NoteText text={playbook.description} className="pb-description" />
              )}
            </CCardBody>
          </CCard>
        </CCol>
        <CCol xs={12}>
          <AttachmentsPanel
            key={playbook.id}
            target="playbook"
            id={playbook.id}
            title="Examples"
            onCountChange={() => void queryClient.invalidateQueries({ queryKey: queryKeys.playbooks.list })}
          />
        </CCol>
      </CRow>
    </div>
  );
}
