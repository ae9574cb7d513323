import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import {
  CAlert,
  CButton,
  CCol,
  CForm,
  CFormCheck,
  CFormFeedback,
  CFormInput,
  CFormLabel,
  CFormText,
  CFormTextarea,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CRow,
  CSpinner,
} from '@coreui/react';
import { PLAYBOOK_LIMITS, PLAYBOOK_SESSIONS, type Playbook } from '@pipsense/contract';
import { failureMessage, fieldErrors } from '../../../lib/api';
import { useCreatePlaybook, useEditPlaybook } from '../api/playbooks-api';
import { bodyOf, draftOf, draftProblems, emptyDraft, instrumentCode, type PlaybookDraft } from '../model/playbook-form';
import { ChipsInput } from './chips-input';
import { RuleGroupsEditor } from './rule-groups-editor';

/** A field's message under it, shown when the form's check or the server refused the field. */
function Problem({ message }: { message: string | undefined }): ReactNode {
  return message ? (
    <CFormFeedback invalid className="d-block">
      {message}
    </CFormFeedback>
  ) : null;
}

/**
 * docs/PRODUCT.md, Playbooks: a new playbook or an edit of one. The contract's own check runs before sending; the
 * server's messages come back by field and are shown under each.
 */
export function PlaybookForm({ playbook, onClose }: { playbook: Playbook | null; onClose: () => void }) {
  const create = useCreatePlaybook();
  const edit = useEditPlaybook();
  const [draft, setDraft] = useState<PlaybookDraft>(() => (playbook ? draftOf(playbook) : emptyDraft()));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const pending = create.isPending || edit.isPending;
  const set = <K extends keyof PlaybookDraft>(name: K, value: PlaybookDraft[K]) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setProblems(({ [name]: _gone, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(draft);
    const local = draftProblems(body);
    setProblems(local);
    if (Object.keys(local).length > 0) return;
    const done = {
      onSuccess: () => {
        toast.success(playbook ? `Saved “${body.name}”` : `Added the playbook “${body.name}”`);
        onClose();
      },
      onError: (error: Error) => {
        const byField = fieldErrors(error);
        setProblems(
          Object.keys(byField).length > 0 ? byField : { '': failureMessage(error, 'The playbook could not be saved.') },
        );
      },
    };
    if (playbook) edit.mutate({ id: playbook.id, body }, done);
    else create.mutate(body, done);
  };

  const title = playbook ? `Edit “${playbook.name}”` : 'New playbook';
  return (
    <CModal visible onClose={onClose} alignment="center" size="lg" aria-labelledby="playbook-form-title">
      <CForm onSubmit={submit} aria-label={title} noValidate>
        <CModalHeader>
          <CModalTitle id="playbook-form-title">{title}</CModalTitle>
        </CModalHeader>
        <CModalBody>
          <CRow className="g-3">
            <CCol xs={12} md={8}>
              <CFormLabel htmlFor="pb-name">Name</CFormLabel>
              <CFormInput
                id="pb-name"
                value={draft.name}
                maxLength={PLAYBOOK_LIMITS.name}
                placeholder="e.g. London breakout"
                invalid={!!problems.name}
                onChange={(e) => set('name', e.target.value)}
              />
              <Problem message={problems.name} />
            </CCol>
            <CCol xs={12} md={4}>
              <CFormLabel htmlFor="pb-risk">Default risk % (optional)</CFormLabel>
              <CFormInput
                id="pb-risk"
                inputMode="decimal"
                value={draft.defaultRiskPct}
                placeholder="e.g. 1"
                invalid={!!problems.defaultRiskPct}
                onChange={(e) => set('defaultRiskPct', e.target.value)}
              />
              <Problem message={problems.defaultRiskPct} />
            </CCol>
            <CCol xs={12}>
              <CFormLabel htmlFor="pb-description">Description</CFormLabel>
              <CFormTextarea
                id="pb-description"
                rows={4}
                value={draft.description}
                maxLength={PLAYBOOK_LIMITS.description}
                placeholder="The idea of the setup, when it works, when to stay out (markdown is kept as text)"
                invalid={!!problems.description}
                onChange={(e) => set('description', e.target.value)}
              />
              <Problem message={problems.description} />
            </CCol>
            <CCol xs={12} md={7}>
              <CFormLabel htmlFor="pb-instruments">Instruments</CFormLabel>
              <ChipsInput
                id="pb-instruments"
                what="Instruments"
                value={draft.instruments}
                onChange={(next) => set('instruments', next)}
                normalise={instrumentCode}
                placeholder="Type EUR_USD and press Enter"
                invalid={!!problems.instruments}
              />
              <Problem message={problems.instruments} />
            </CCol>
            <CCol xs={12} md={5}>
              <fieldset>
                <legend className="form-label fs-6 mb-2">Sessions</legend>
                <div className="pb-sessions">
                  {PLAYBOOK_SESSIONS.map((session) => (
                    <CFormCheck
                      key={session}
                      id={`pb-session-${session}`}
                      label={session}
                      checked={draft.sessions.includes(session)}
                      onChange={(e) =>
                        set(
                          'sessions',
                          PLAYBOOK_SESSIONS.filter((s) =>
                            s === session ? e.target.checked : draft.sessions.includes(s),
                          ),
                        )
                      }
                    />
                  ))}
                </div>
              </fieldset>
              <Problem message={problems.sessions} />
            </CCol>
            <CCol xs={12}>
              <fieldset>
                <legend className="form-label fs-6 mb-1">Rules</legend>
                <CFormText className="d-block mb-2">
                  The checklist a trade is reviewed against, in groups. A rule you remove is retired: trades reviewed
                  against it keep their ticks.
                </CFormText>
                <RuleGroupsEditor groups={draft.groups} onChange={(next) => set('groups', next)} />
              </fieldset>
              <Problem message={problems.groups} />
            </CCol>
          </CRow>
          {problems[''] && (
            <CAlert color="danger" className="mt-3 mb-0 py-2" role="alert">
              {problems['']}
            </CAlert>
          )}
        </CModalBody>
        <CModalFooter>
          <CButton color="secondary" variant="outline" onClick={onClose}>
            Cancel
          </CButton>
          <CButton type="submit" color="primary" disabled={pending}>
            {pending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
            Save playbook
          </CButton>
        </CModalFooter>
      </CForm>
    </CModal>
  );
}
