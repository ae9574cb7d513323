import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CButton, CFormInput } from '@coreui/react';
import { failureMessage } from '../../lib/api';
import './inline-rename.css';

/**
 * A name edited in place (a tag, a rule set): Save sends the trimmed name unless it is unchanged, Cancel or Escape
 * leave it; a local check's message or the server's refusal shows under the field, and a toast says the new name.
 */
export function InlineRename({
  name: current,
  save,
  pending,
  failure,
  check,
  className,
  onDone,
}: {
  name: string;
  save: (name: string) => Promise<unknown>;
  pending: boolean;
  /** What is said when the server's answer names no reason. */
  failure: string;
  check?: (name: string) => string | null;
  className?: string;
  onDone: () => void;
}) {
  const [name, setName] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = check?.(name) ?? null;
    if (problem) return setError(problem);
    const trimmed = name.trim();
    if (trimmed === current) return onDone();
    save(trimmed).then(
      () => {
        toast.success(`Renamed to “${trimmed}”`);
        onDone();
      },
      (e: unknown) => setError(failureMessage(e, failure)),
    );
  };
  return (
    <form
      className={`inline-rename${className ? ` ${className}` : ''}`}
      onSubmit={submit}
      aria-label={`Rename ${current}`}
    >
      <CFormInput
        size="sm"
        autoFocus
        value={name}
        aria-label="New name"
        invalid={error !== null}
        onChange={(e) => {
          setName(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <CButton type="submit" size="sm" color="primary" disabled={pending}>
        Save
      </CButton>
      <CButton type="button" size="sm" color="secondary" variant="ghost" onClick={onDone}>
        Cancel
      </CButton>
      {error && (
        <div className="inline-rename-error text-danger small" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
