import { useId, useState, type FormEvent } from 'react';
import {
  CButton,
  CForm,
  CFormInput,
  CFormSelect,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import type { InfoRecord } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { useSaveInfo } from '../api/info-api';
import { oandaRecord, validateOandaForm, type OandaForm } from '../model/oanda-form';

const modeOptions = [
  { label: 'Select mode', value: '' },
  { label: 'Demo', value: 'demo' },
  { label: 'Live', value: 'live' },
];

interface OandaConfigModalProps {
  visible: boolean;
  record: InfoRecord;
  onClose: () => void;
}

export function OandaConfigModal({ visible, record, onClose }: OandaConfigModalProps) {
  const titleId = useId();
  return (
    // The modal unmounts its content when closed, so every opening starts again from the saved record.
    <CModal visible={visible} onClose={onClose} alignment="center" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>OANDA Configuration</CModalTitle>
      </CModalHeader>
      <OandaConfigForm record={record} onDone={onClose} />
    </CModal>
  );
}

function OandaConfigForm({ record, onDone }: { record: InfoRecord; onDone: () => void }) {
  const [form, setForm] = useState<OandaForm>(record.oanda);
  const save = useSaveInfo();
  const set = (patch: Partial<OandaForm>) => setForm((f) => ({ ...f, ...patch }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = validateOandaForm(form);
    if (problem) {
      toast.error(problem);
      return;
    }
    save.mutate(oandaRecord(record, form), { onSuccess: onDone });
  }

  return (
    <CForm onSubmit={onSubmit} noValidate>
      <CModalBody>
        <div className="mb-3">
          <CFormInput
            id="oanda-access-token"
            type="password"
            label="Access Token"
            autoComplete="off"
            spellCheck={false}
            value={form.accessToken}
            // The saved token comes back masked: selecting it lets a pasted token replace it whole.
            onFocus={(e) => e.currentTarget.select()}
            onChange={(e) => set({ accessToken: e.target.value })}
            text={
              record.oanda.accessToken
                ? 'Your saved token is shown masked. Leave it to keep that token, or paste a new one.'
                : 'Your OANDA personal access token.'
            }
          />
        </div>
        <div className="mb-3">
          <CFormInput
            id="oanda-account-id"
            label="Account ID"
            placeholder="101-001-1234567-001"
            autoComplete="off"
            spellCheck={false}
            value={form.accountId}
            onChange={(e) => set({ accountId: e.target.value })}
            text="Leave empty to use every account the token can see."
          />
        </div>
        <CFormSelect
          id="oanda-mode"
          label="Mode"
          options={modeOptions}
          value={form.mode}
          onChange={(e) => set({ mode: e.target.value as OandaForm['mode'] })}
          text="Demo for an OANDA practice account, Live for a real-money account."
        />
        <div className="oanda-help small mt-3 p-3 rounded">
          <strong>Where to find them:</strong> sign in at OANDA and open <em>My Account → Manage API Access</em> to
          generate your access token. Your account ID is shown in the OANDA hub and looks like 101-xxx-xxxxxxx-xxx.
        </div>
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </CButton>
        <CButton type="submit" color="primary" disabled={save.isPending}>
          {save.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          Save Configuration
        </CButton>
      </CModalFooter>
    </CForm>
  );
}
