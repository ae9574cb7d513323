import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CAlert, CButton, CCol, CFormInput, CFormLabel, CFormSelect, CFormText, CRow, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPlus, cilTrash } from '@coreui/icons';
import type { RuleKind, StoredRuleSet } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { useEditRuleSet } from '../api/rules-api';
import {
  draftFromRules,
  isSized,
  KIND_FIELDS,
  kindsToAdd,
  newRuleDraft,
  refusalOf,
  rulesFromDraft,
  timeZones,
  type ParamField,
  type RuleDraft,
  type RulesDraft,
} from '../model/rule-form';
import { RULE_LABELS } from '../model/rule-lines';
import { EFFECT_LABELS, OBJECTIVE_KINDS, OPTION_LABELS } from '../model/rule-words';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function ParamInput({
  id,
  field,
  value,
  onChange,
}: {
  id: string;
  field: ParamField;
  value: string;
  onChange: (value: string) => void;
}) {
  if (field.type === 'option')
    return (
      <CFormSelect id={id} size="sm" value={value} onChange={(e) => onChange(e.target.value)}>
        {Object.entries(OPTION_LABELS[field.name]).map(([option, label]) => (
          <option key={option} value={option}>
            {capitalised(label)}
          </option>
        ))}
      </CFormSelect>
    );
  const numeric = field.type !== 'amount';
  return (
    <>
      <CFormInput
        id={id}
        size="sm"
        type={numeric ? 'number' : 'text'}
        inputMode={field.type === 'count' ? 'numeric' : 'decimal'}
        step={field.type === 'count' ? 1 : 'any'}
        min={numeric ? 0 : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {field.hint && <CFormText>{field.hint}</CFormText>}
    </>
  );
}

/** One rule's inputs: its size, its params and what a break does, with Remove. */
function RuleFieldset({
  idPrefix,
  rule,
  invalid,
  onChange,
  onRemove,
}: {
  idPrefix: string;
  rule: RuleDraft;
  invalid: boolean;
  onChange: (rule: RuleDraft) => void;
  onRemove: () => void;
}) {
  const label = RULE_LABELS[rule.kind];
  const id = (name: string) => `${idPrefix}-${rule.kind}-${name}`;
  const percentOf = rule.kind === 'profit_target' || rule.kind === 'max_loss' ? ' of the initial balance' : '';
  return (
    <fieldset className={invalid ? 'rule-edit rule-edit-invalid' : 'rule-edit'} aria-invalid={invalid || undefined}>
      <legend className="rule-edit-legend">
        <span className="h6 mb-0">{label}</span>
        <CButton
          type="button"
          size="sm"
          color="danger"
          variant="ghost"
          aria-label={`Remove ${label}`}
          onClick={onRemove}
        >
          <CIcon icon={cilTrash} className="me-1" aria-hidden="true" />
          Remove
        </CButton>
      </legend>
      <CRow className="g-2">
        {isSized(rule.kind) && (
          <>
            <CCol xs={6} md={4}>
              <CFormLabel htmlFor={id('size')} className="small mb-1">
                Limit as
              </CFormLabel>
              <CFormSelect
                id={id('size')}
                size="sm"
                value={rule.size}
                // A percent is no amount: the other size starts empty.
                onChange={(e) => onChange({ ...rule, size: e.target.value as RuleDraft['size'], sizeValue: '' })}
              >
                <option value="pct">A percent{percentOf}</option>
                <option value="amount">An amount</option>
              </CFormSelect>
            </CCol>
            <CCol xs={6} md={4}>
              <CFormLabel htmlFor={id('limit')} className="small mb-1">
                {rule.size === 'pct' ? 'Limit (%)' : 'Limit (amount)'}
              </CFormLabel>
              <ParamInput
                id={id('limit')}
                field={{ name: rule.size, label: '', type: rule.size === 'pct' ? 'percent' : 'amount' }}
                value={rule.sizeValue}
                onChange={(sizeValue) => onChange({ ...rule, sizeValue })}
              />
            </CCol>
          </>
        )}
        {KIND_FIELDS[rule.kind].map((field) => (
          <CCol xs={12} sm={6} md={4} key={field.name}>
            <CFormLabel htmlFor={id(field.name)} className="small mb-1">
              {field.label}
            </CFormLabel>
            <ParamInput
              id={id(field.name)}
              field={field}
              value={rule.values[field.name] ?? ''}
              onChange={(value) => onChange({ ...rule, values: { ...rule.values, [field.name]: value } })}
            />
          </CCol>
        ))}
        {OBJECTIVE_KINDS.includes(rule.kind) ? (
          <CCol xs={12} sm={6} md={4} className="small text-body-secondary align-self-end">
            An objective: met or not yet, never broken.
          </CCol>
        ) : (
          <CCol xs={12} sm={6} md={4}>
            <CFormLabel htmlFor={id('effect')} className="small mb-1">
              A break
            </CFormLabel>
            <CFormSelect
              id={id('effect')}
              size="sm"
              value={rule.effect}
              onChange={(e) => onChange({ ...rule, effect: e.target.value as RuleDraft['effect'] })}
            >
              {Object.entries(EFFECT_LABELS).map(([effect, text]) => (
                <option key={effect} value={effect}>
                  {capitalised(text)}
                </option>
              ))}
            </CFormSelect>
          </CCol>
        )}
      </CRow>
    </fieldset>
  );
}

/**
 * The rules of a set as inputs (controlled): one fieldset per rule, the set's daily reset once, and Add rule for a
 * kind the set does not hold yet (one rule per kind). The card's editor and the add form's custom rules use it.
 */
export function RuleFields({
  draft,
  onChange,
  invalidKind = null,
}: {
  draft: RulesDraft;
  onChange: (draft: RulesDraft) => void;
  /** The rule the server refused (refusalOf), marked. */
  invalidKind?: RuleKind | null;
}) {
  const idPrefix = `rules${useId().replace(/:/g, '')}`;
  const addable = kindsToAdd(draft);
  const [adding, setAdding] = useState<RuleKind | ''>('');
  const toAdd = adding !== '' && addable.includes(adding) ? adding : (addable[0] ?? '');
  const setRule = (index: number, rule: RuleDraft) =>
    onChange({ ...draft, rules: draft.rules.map((r, i) => (i === index ? rule : r)) });
  const [zones] = useState(timeZones);
  // A removed rule takes its Remove button with it: the focus goes to 'Rule to add'.
  const addSelect = useRef<HTMLSelectElement>(null);
  const remove = (index: number) => {
    onChange({ ...draft, rules: draft.rules.filter((_, i) => i !== index) });
    requestAnimationFrame(() => addSelect.current?.focus());
  };
  return (
    <div className="rule-fields">
      {draft.rules.length === 0 && (
        <p className="text-body-secondary small mb-2">No rules yet: add the first one below.</p>
      )}
      {draft.rules.map((rule, index) => (
        <RuleFieldset
          key={rule.kind}
          idPrefix={idPrefix}
          rule={rule}
          invalid={rule.kind === invalidKind}
          onChange={(next) => setRule(index, next)}
          onRemove={() => remove(index)}
        />
      ))}
      {draft.rules.some((rule) => rule.boundary) && (
        <fieldset className="rule-edit">
          <legend className="rule-edit-legend">
            <span className="h6 mb-0">Daily reset</span>
          </legend>
          <CRow className="g-2">
            <CCol xs={6} md={4}>
              <CFormLabel htmlFor={`${idPrefix}-reset`} className="small mb-1">
                Reset time (HH:MM)
              </CFormLabel>
              <CFormInput
                id={`${idPrefix}-reset`}
                size="sm"
                inputMode="numeric"
                placeholder="00:00"
                maxLength={5}
                autoComplete="off"
                value={draft.resetTime}
                onChange={(e) => onChange({ ...draft, resetTime: e.target.value })}
              />
            </CCol>
            <CCol xs={6} md={5}>
              <CFormLabel htmlFor={`${idPrefix}-zone`} className="small mb-1">
                Time zone
              </CFormLabel>
              <CFormInput
                id={`${idPrefix}-zone`}
                size="sm"
                list={`${idPrefix}-zones`}
                autoComplete="off"
                value={draft.zone}
                onChange={(e) => onChange({ ...draft, zone: e.target.value })}
              />
              <datalist id={`${idPrefix}-zones`}>
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </CCol>
            <CCol xs={12} md={3} className="small text-body-secondary align-self-end">
              One per set: the day every daily rule counts from.
            </CCol>
          </CRow>
        </fieldset>
      )}
      {addable.length > 0 && (
        <div className="rule-add">
          <CFormLabel htmlFor={`${idPrefix}-add`} className="small mb-0">
            Rule to add
          </CFormLabel>
          <CFormSelect
            id={`${idPrefix}-add`}
            ref={addSelect}
            size="sm"
            value={toAdd}
            onChange={(e) => setAdding(e.target.value as RuleKind)}
          >
            {addable.map((kind) => (
              <option key={kind} value={kind}>
                {RULE_LABELS[kind]}
              </option>
            ))}
          </CFormSelect>
          <CButton
            type="button"
            size="sm"
            color="primary"
            variant="outline"
            onClick={() => toAdd !== '' && onChange({ ...draft, rules: [...draft.rules, newRuleDraft(toAdd)] })}
          >
            <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
            Add rule
          </CButton>
        </div>
      )}
    </div>
  );
}

/** Edit rules on a set's card: Save sends the whole list (`edit_rule_set`); a refusal keeps every input as typed. */
export function RuleEditor({ ruleSet, onDone }: { ruleSet: StoredRuleSet; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftFromRules(ruleSet.rules));
  const [error, setError] = useState<{ kind: RuleKind | null; message: string } | null>(null);
  const edit = useEditRuleSet();
  // Opened from 'Edit rules' (which goes): the focus moves to the first input.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLElement>('input, select')?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const rules = rulesFromDraft(draft);
    edit.mutate(
      { id: ruleSet.id, rules },
      {
        onSuccess: () => {
          toast.success(`Saved the rules of “${ruleSet.name}”`);
          onDone();
        },
        onError: (e) => setError(refusalOf(rules, failureMessage(e, 'The rules could not be saved.'))),
      },
    );
  };
  return (
    // The server checks every rule and names the field at fault: one source of messages.
    <form
      ref={form}
      className="rule-editor"
      onSubmit={submit}
      aria-label={`Rules of ${ruleSet.name}`}
      noValidate
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      <RuleFields draft={draft} onChange={setDraft} invalidKind={error?.kind} />
      {error && (
        <CAlert color="danger" className="mt-2 mb-0 py-2" role="alert">
          {error.message}
        </CAlert>
      )}
      <div className="rule-editor-actions">
        <CButton type="submit" size="sm" color="primary" disabled={edit.isPending}>
          {edit.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          Save rules
        </CButton>
        <CButton type="button" size="sm" color="secondary" variant="outline" onClick={onDone}>
          Cancel
        </CButton>
      </div>
    </form>
  );
}
