import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  CAlert,
  CButton,
  CCol,
  CForm,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CFormText,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CRow,
  CSpinner,
} from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import type { CreateRuleSetBody, RulePresetId } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { presetsQuery, useCreateRuleSet } from '../api/rules-api';
import type { AccountChoice } from '../model/account-choices';
import { emptyDraft, refusalOf, rulesFromDraft, type RulesDraft } from '../model/rule-form';
import { RuleFields } from './rule-editor';

/** The Preset select's choice of no preset: the trader's own rules, from an empty list. */
const CUSTOM = 'custom';
const CUSTOM_NAME = 'Custom rules';

/** A datetime-local value ('2026-11-02T08:00') read in the browser's zone, as a UTC ISO instant. */
const toInstant = (local: string) => new Date(local).toISOString();

/** docs/PRODUCT.md, My Rules: a new rule set from a preset; the server checks it and its messages are shown as sent. */
export function AddRuleSetForm({ accounts, onClose }: { accounts: readonly AccountChoice[]; onClose: () => void }) {
  const presets = useQuery(presetsQuery());
  const create = useCreateRuleSet();
  const [accountId, setAccountId] = useState(accounts[0]?.id ?? '');
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<RulePresetId | typeof CUSTOM | ''>('');
  const [custom, setCustom] = useState<RulesDraft>(emptyDraft);
  const [startTime, setStartTime] = useState('');
  const [initialBalance, setInitialBalance] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chosen = presets.data?.find((p) => p.id === preset);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body: CreateRuleSetBody = {
      accountId,
      name: name.trim() || chosen?.name || (preset === CUSTOM ? CUSTOM_NAME : ''),
      ...(preset === CUSTOM ? { rules: rulesFromDraft(custom) } : preset ? { preset } : {}),
      ...(startTime ? { startTime: toInstant(startTime) } : {}),
      ...(initialBalance.trim() ? { initialBalance: initialBalance.trim() } : {}),
    };
    create.mutate(body, {
      onSuccess: () => {
        toast.success(`Added the rule set “${body.name}”`);
        onClose();
      },
      onError: (e) => {
        const message = failureMessage(e, 'The rule set could not be created.');
        setError(body.rules ? refusalOf(body.rules, message).message : message);
      },
    });
  };

  return (
    <CModal visible onClose={onClose} alignment="center" size="lg" aria-labelledby="add-rule-set-title">
      <CForm onSubmit={submit} aria-label="Add rule set">
        <CModalHeader>
          <CModalTitle id="add-rule-set-title">Add rule set</CModalTitle>
        </CModalHeader>
        <CModalBody>
          <CRow className="g-3">
            <CCol xs={12} md={6}>
              <CFormLabel htmlFor="rule-account">Account</CFormLabel>
              <CFormSelect id="rule-account" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
                {accounts.map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.label}
                  </option>
                ))}
              </CFormSelect>
            </CCol>
            <CCol xs={12} md={6}>
              <CFormLabel htmlFor="rule-preset">Preset</CFormLabel>
              <CFormSelect
                id="rule-preset"
                value={preset}
                disabled={!presets.data}
                onChange={(e) => setPreset(e.target.value as RulePresetId | typeof CUSTOM | '')}
              >
                <option value="">{presets.data ? 'Choose a preset…' : 'Loading the presets…'}</option>
                {presets.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
                <option value={CUSTOM}>{CUSTOM_NAME} (start from an empty list)</option>
              </CFormSelect>
              {presets.isError && (
                <CFormText className="text-danger">The presets could not be loaded: {presets.error.message}</CFormText>
              )}
            </CCol>
            {chosen && (
              <CCol xs={12}>
                <div className="rule-preset-info small" aria-label="Preset details">
                  <div className="text-body-secondary">Source: {chosen.source}</div>
                  {chosen.assumptions.length > 0 && (
                    <>
                      <div className="text-body-secondary mt-1">Assumed where the sources differ:</div>
                      <ul className="mb-0 ps-3">
                        {chosen.assumptions.map((assumption) => (
                          <li key={assumption}>{assumption}</li>
                        ))}
                      </ul>
                    </>
                  )}
                </div>
              </CCol>
            )}
            {preset === CUSTOM && (
              <CCol xs={12}>
                <RuleFields draft={custom} onChange={setCustom} />
              </CCol>
            )}
            <CCol xs={12}>
              <CFormLabel htmlFor="rule-name">Name</CFormLabel>
              <CFormInput
                id="rule-name"
                value={name}
                maxLength={200}
                placeholder={chosen?.name ?? (preset === CUSTOM ? CUSTOM_NAME : 'e.g. FTMO challenge, my own rules')}
                onChange={(e) => setName(e.target.value)}
              />
            </CCol>
            <CCol xs={12} md={6}>
              <CFormLabel htmlFor="rule-start">Start time (optional)</CFormLabel>
              <CFormInput
                id="rule-start"
                type="datetime-local"
                value={startTime}
                onChange={(e) => setStartTime(e.target.value)}
              />
              <CFormText>Your own time; empty: the account&apos;s first booking.</CFormText>
            </CCol>
            <CCol xs={12} md={6}>
              <CFormLabel htmlFor="rule-initial">Initial balance (optional)</CFormLabel>
              <CFormInput
                id="rule-initial"
                inputMode="decimal"
                value={initialBalance}
                placeholder="e.g. 100000"
                onChange={(e) => setInitialBalance(e.target.value)}
              />
              <CFormText>Empty: the balance at the start.</CFormText>
            </CCol>
          </CRow>
          {error && (
            <CAlert color="danger" className="mt-3 mb-0 py-2" role="alert">
              {error}
            </CAlert>
          )}
        </CModalBody>
        <CModalFooter>
          <CButton color="secondary" variant="outline" onClick={onClose}>
            Cancel
          </CButton>
          <CButton type="submit" color="primary" disabled={create.isPending || accountId === ''}>
            {create.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
            Save
          </CButton>
        </CModalFooter>
      </CForm>
    </CModal>
  );
}
