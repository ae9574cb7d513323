import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  CButton,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CFormSwitch,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import type { CoachSettings, CoachThresholds } from '@pipsense/contract';
import { ApiError, failureMessage } from '../../../lib/api';
import { useCoachSettings, useUpdateCoachSettings } from '../api/coach-api';
import { THRESHOLD_FIELDS, WEEKDAYS } from '../model/coach-view';

type ThresholdText = Record<keyof CoachThresholds, string>;

const textOf = (t: CoachThresholds): ThresholdText =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, String(v)])) as ThresholdText;

/** A threshold typed in: its number, or the sentence that says what it must be. */
function checkThreshold(field: (typeof THRESHOLD_FIELDS)[number], text: string): number | string {
  const value = Number(text.trim());
  const whole = field.step === 1;
  if (
    text.trim() === '' ||
    !Number.isFinite(value) ||
    (whole && !Number.isInteger(value)) ||
    value < field.min ||
    value > field.max
  )
    return `${field.label} must be ${whole ? 'a whole number' : 'a number'} from ${field.min} to ${field.max}.`;
  return value;
}

/** The server's refusals by field (`thresholds.revengeMinutes`, `weeklyHour`), and any other message. */
function serverProblems(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError) for (const issue of error.issues) out[issue.path] ??= issue.message;
  return out;
}

function SettingsForm({ settings, onClose }: { settings: CoachSettings; onClose: () => void }) {
  const id = useId();
  const save = useUpdateCoachSettings();
  const [draft, setDraft] = useState(settings);
  const [thresholds, setThresholds] = useState(() => textOf(settings.thresholds));
  const [tried, setTried] = useState(false);
  const checked = THRESHOLD_FIELDS.map((f) => [f, checkThreshold(f, thresholds[f.name])] as const);
  const local = Object.fromEntries(
    checked.filter(([, v]) => typeof v === 'string').map(([f, v]) => [`thresholds.${f.name}`, v as string]),
  );
  const server = serverProblems(save.error);
  const problem = (path: string) => (tried ? local[path] : undefined) ?? server[path];
  const set = <K extends keyof CoachSettings>(name: K, value: CoachSettings[K]) =>
    setDraft((d) => ({ ...d, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(local).length > 0) return;
    const values = Object.fromEntries(checked.map(([f, v]) => [f.name, v])) as CoachThresholds;
    save.mutate(
      { ...draft, thresholds: values },
      {
        onSuccess: () => {
          toast.success('Coach settings saved');
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Coach settings">
      <CModalBody>
        <CFormSwitch
          id={`${id}-auto`}
          label="Review new closed trades automatically"
          checked={draft.autoReview}
          onChange={(e) => set('autoReview', e.target.checked)}
        />
        <CFormSwitch
          id={`${id}-ai`}
          className="mt-2"
          label="AI-written reviews"
          checked={draft.aiWritten}
          onChange={(e) => set('aiWritten', e.target.checked)}
        />
        <p className="small text-body-secondary ms-4 mb-3">
          Until this is on, automatic and weekly reviews use the built-in analysis, and your AI provider is used only
          when you press ‘Review this trade’. When on, background reviews may use it within the coach’s share of the
          daily AI requests.
        </p>
        <fieldset className="mb-3">
          <legend className="h6 small fw-semibold">Weekly review</legend>
          <div className="coach-settings-row">
            <div>
              <CFormLabel htmlFor={`${id}-day`} className="small mb-1">
                Day
              </CFormLabel>
              <CFormSelect
                id={`${id}-day`}
                size="sm"
                value={draft.weeklyDay}
                onChange={(e) => set('weeklyDay', Number(e.target.value))}
              >
                {WEEKDAYS.map((name, i) => (
                  <option key={name} value={i + 1}>
                    {name}
                  </option>
                ))}
              </CFormSelect>
            </div>
            <div>
              <CFormLabel htmlFor={`${id}-hour`} className="small mb-1">
                Hour
              </CFormLabel>
              <CFormSelect
                id={`${id}-hour`}
                size="sm"
                value={draft.weeklyHour}
                onChange={(e) => set('weeklyHour', Number(e.target.value))}
              >
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={h}>
                    {`${String(h).padStart(2, '0')}:00`}
                  </option>
                ))}
              </CFormSelect>
            </div>
          </div>
          <p className="small text-body-secondary mt-1 mb-2">
            Each week’s review is written once the week has ended, at this day and hour in your time zone.
          </p>
          <CFormSwitch
            id={`${id}-email`}
            label="Email my weekly review"
            checked={draft.emailWeekly}
            onChange={(e) => set('emailWeekly', e.target.checked)}
          />
        </fieldset>
        <fieldset>
          <legend className="h6 small fw-semibold">Pattern thresholds</legend>
          {THRESHOLD_FIELDS.map((field) => {
            const path = `thresholds.${field.name}`;
            const message = problem(path);
            return (
              <div key={field.name} className="mb-2">
                <CFormLabel htmlFor={`${id}-${field.name}`} className="small mb-1">
                  {field.label}
                </CFormLabel>
                <CFormInput
                  id={`${id}-${field.name}`}
                  size="sm"
                  type="number"
                  inputMode="decimal"
                  min={field.min}
                  max={field.max}
                  step={field.step}
                  value={thresholds[field.name]}
                  invalid={message !== undefined}
                  aria-describedby={`${id}-${field.name}-help`}
                  onChange={(e) => setThresholds((t) => ({ ...t, [field.name]: e.target.value }))}
                />
                <div id={`${id}-${field.name}-help`} className="form-text">
                  {field.help}
                </div>
                {message && <div className="invalid-feedback d-block">{message}</div>}
              </div>
            );
          })}
        </fieldset>
        {save.isError && (
          <p className="text-danger small mb-0 mt-2" role="alert">
            {failureMessage(save.error, 'The coach settings could not be saved.')}
          </p>
        )}
        {tried && Object.keys(local).length > 0 && (
          <p className="text-danger small mb-0 mt-2" role="alert">
            Some thresholds are out of range: see the fields marked above.
          </p>
        )}
      </CModalBody>
      <CModalFooter>
        <CButton type="button" color="secondary" variant="outline" onClick={onClose}>
          Cancel
        </CButton>
        <CButton type="submit" color="primary" disabled={save.isPending}>
          {save.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
          Save settings
        </CButton>
      </CModalFooter>
    </form>
  );
}

/** The coach's settings (docs/coach.md, Settings) in a dialog: automatic reviews, the provider, the weekly review. */
export function CoachSettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useCoachSettings();
  const titleId = useId();
  return (
    <CModal visible onClose={onClose} scrollable alignment="center" fullscreen="sm" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>Coach settings</CModalTitle>
      </CModalHeader>
      {settings.isError ? (
        <CModalBody>
          <p className="text-danger small mb-0" role="alert">
            The coach settings could not be loaded: {settings.error.message}
          </p>
        </CModalBody>
      ) : settings.data ? (
        <SettingsForm settings={settings.data} onClose={onClose} />
      ) : (
        <CModalBody>
          <div role="status" aria-label="Loading the coach settings">
            <CSpinner size="sm" color="primary" aria-hidden="true" />
          </div>
        </CModalBody>
      )}
    </CModal>
  );
}
