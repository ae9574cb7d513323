import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CButton, CFormCheck, CFormInput } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilBell } from '@coreui/icons';
import type { StoredRuleSet } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { useEditRuleSet } from '../api/rules-api';
import { alertSettingsLine, parsePercents } from '../model/alert-thresholds';

/**
 * A rule set's alert settings (docs/PRODUCT.md, My Rules: Alerts): the percents of the daily and maximum loss at which
 * the trader is told, and whether by email too. The server checks the percents; its 400 shows as it came.
 */
export function AlertSettings({ ruleSet }: { ruleSet: StoredRuleSet }) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [text, setText] = useState('');
  const [email, setEmail] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const edit = useEditRuleSet();
  const formId = `alert-settings-${ruleSet.id}`;

  const open = () => {
    setText(ruleSet.alertThresholds.join(', '));
    setEmail(ruleSet.emailAlerts);
    setError(null);
    setSaved(false);
    setEditing(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const percents = parsePercents(text);
    if (percents === null) {
      setError('Write the percents as numbers separated by commas, such as 50, 80, 100.');
      return;
    }
    edit.mutate(
      { id: ruleSet.id, alertThresholds: percents, emailAlerts: email },
      {
        onSuccess: () => {
          toast.success(`Alert settings of “${ruleSet.name}” saved`);
          setEditing(false);
          setSaved(true);
        },
        onError: (e) => setError(failureMessage(e, 'The alert settings could not be saved.')),
      },
    );
  };

  if (!editing)
    return (
      <div className="rule-alert-settings small">
        <span>
          <CIcon icon={cilBell} className="text-body-secondary me-1 align-text-bottom" aria-hidden="true" />
          {alertSettingsLine(ruleSet.alertThresholds, ruleSet.emailAlerts)}
        </span>
        {saved && (
          <span className="text-success" role="status">
            Saved
          </span>
        )}
        <CButton size="sm" color="primary" variant="ghost" className="py-0" onClick={open}>
          Edit alerts
        </CButton>
      </div>
    );

  return (
    <form className="rule-alert-form small" onSubmit={submit} aria-label={`Alerts of ${ruleSet.name}`} noValidate>
      <label htmlFor={`${formId}-percents`} className="form-label mb-1">
        Alert at (percent of the limit used, comma-separated)
      </label>
      <div className="rule-alert-fields">
        <CFormInput
          id={`${formId}-percents`}
          size="sm"
          autoFocus
          value={text}
          placeholder="50, 80, 100"
          invalid={error !== null}
          aria-describedby={error ? `${formId}-error` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
        />
        <CFormCheck
          id={`${formId}-email`}
          label="Also email me"
          checked={email}
          onChange={(e) => setEmail(e.target.checked)}
        />
        <CButton type="submit" size="sm" color="primary" disabled={edit.isPending}>
          Save
        </CButton>
        <CButton type="button" size="sm" color="secondary" variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </CButton>
      </div>
      {error && (
        <div id={`${formId}-error`} className="text-danger mt-1" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
