import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  CAlert,
  CButton,
  CCol,
  CForm,
  CFormFeedback,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CFormTextarea,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CRow,
  CSpinner,
} from '@coreui/react';
import { PLAYBOOK_LIMITS, type MissedTrade, type Playbook } from '@pipsense/contract';
import { failureMessage, fieldErrors } from '../../../lib/api';
import { useCreateMissedTrade, useEditMissedTrade } from '../api/playbooks-api';
import { emptyMissed, missedBodyOf, missedDraftOf, missedProblems, type MissedDraft } from '../model/missed-form';

type Field = Exclude<keyof MissedDraft, 'side'>;
const PRICES: ReadonlyArray<[Field, string, string]> = [
  ['entry', 'Entry', 'e.g. 1.0850'],
  ['stop', 'Stop', 'e.g. 1.0820'],
  ['target', 'Target (optional)', 'e.g. 1.0910'],
];

/**
 * docs/PRODUCT.md, Missed Trades: a setup seen and not taken. The contract's check runs first; the server's messages
 * come back by field and are shown under each.
 */
export function MissedTradeForm({
  missed,
  playbooks,
  onClose,
}: {
  missed: MissedTrade | null;
  playbooks: readonly Playbook[];
  onClose: () => void;
}) {
  const create = useCreateMissedTrade();
  const edit = useEditMissedTrade();
  const [draft, setDraft] = useState<MissedDraft>(() => (missed ? missedDraftOf(missed) : emptyMissed()));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const pending = create.isPending || edit.isPending;
  const set = <K extends keyof MissedDraft>(name: K, value: MissedDraft[K]) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setProblems(({ [name]: _gone, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = missedBodyOf(draft);
    const local = missedProblems(body);
    setProblems(local);
    if (Object.keys(local).length > 0) return;
    const done = {
      onSuccess: () => {
        toast.success(missed ? 'Saved the missed trade' : 'Logged the missed trade');
        onClose();
      },
      onError: (error: Error) => {
        const byField = fieldErrors(error);
        setProblems(
          Object.keys(byField).length > 0
            ? byField
            : { '': failureMessage(error, 'The missed trade could not be saved.') },
        );
      },
    };
    if (missed) edit.mutate({ id: missed.id, body }, done);
    else create.mutate(body, done);
  };

  const problem = (name: string) =>
    problems[name] ? (
      <CFormFeedback invalid className="d-block">
        {problems[name]}
      </CFormFeedback>
    ) : null;
  const title = missed ? 'Edit missed trade' : 'Log a missed trade';
  return (
    <CModal visible onClose={onClose} alignment="center" size="lg" aria-labelledby="missed-form-title">
      <CForm onSubmit={submit} aria-label={title} noValidate>
        <CModalHeader>
          <CModalTitle id="missed-form-title">{title}</CModalTitle>
        </CModalHeader>
        <CModalBody>
          <CRow className="g-3">
            <CCol xs={12} md={4}>
              <CFormLabel htmlFor="missed-instrument">Instrument</CFormLabel>
              <CFormInput
                id="missed-instrument"
                value={draft.instrument}
                placeholder="EUR_USD"
                invalid={!!problems.instrument}
                onChange={(e) => set('instrument', e.target.value)}
              />
              {problem('instrument')}
            </CCol>
            <CCol xs={6} md={3}>
              <CFormLabel htmlFor="missed-side">Side</CFormLabel>
              <CFormSelect
                id="missed-side"
                value={draft.side}
                onChange={(e) => set('side', e.target.value as MissedDraft['side'])}
              >
                <option value="long">Long</option>
                <option value="short">Short</option>
              </CFormSelect>
            </CCol>
            <CCol xs={6} md={5}>
              <CFormLabel htmlFor="missed-time">Time</CFormLabel>
              <CFormInput
                id="missed-time"
                type="datetime-local"
                value={draft.time}
                invalid={!!problems.time}
                onChange={(e) => set('time', e.target.value)}
              />
              {problem('time')}
            </CCol>
            {PRICES.map(([name, label, placeholder]) => (
              <CCol key={name} xs={12} sm={4}>
                <CFormLabel htmlFor={`missed-${name}`}>{label}</CFormLabel>
                <CFormInput
                  id={`missed-${name}`}
                  inputMode="decimal"
                  value={draft[name]}
                  placeholder={placeholder}
                  invalid={!!problems[name]}
                  onChange={(e) => set(name, e.target.value)}
                />
                {problem(name)}
              </CCol>
            ))}
            <CCol xs={12}>
              <CFormLabel htmlFor="missed-playbook">Playbook</CFormLabel>
              <CFormSelect
                id="missed-playbook"
                value={draft.playbookId}
                invalid={!!problems.playbookId}
                onChange={(e) => set('playbookId', e.target.value)}
              >
                <option value="">No playbook</option>
                {playbooks.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </CFormSelect>
              {problem('playbookId')}
            </CCol>
            <CCol xs={12}>
              <CFormLabel htmlFor="missed-note">Note</CFormLabel>
              <CFormTextarea
                id="missed-note"
                rows={3}
                value={draft.note}
                maxLength={PLAYBOOK_LIMITS.missedNote}
                placeholder="Why you did not take it"
                invalid={!!problems.note}
                onChange={(e) => set('note', e.target.value)}
              />
              {problem('note')}
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
            Save
          </CButton>
        </CModalFooter>
      </CForm>
    </CModal>
  );
}
