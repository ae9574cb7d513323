import { useId, type ReactNode } from 'react';
import { CButton, CButtonGroup, CCard, CCardBody, CCardHeader, CSpinner } from '@coreui/react';

/** One section of the money page: a card named by its heading (a region), with its controls beside the heading. */
export function MoneySection({
  title,
  toolbar,
  className = '',
  children,
}: {
  title: string;
  toolbar?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <CCard className={`money-section ${className}`} role="region" aria-labelledby={id}>
      <CCardHeader className="money-section-header">
        <h3 id={id} className="money-section-title">
          {title}
        </h3>
        {toolbar && <div className="money-section-toolbar">{toolbar}</div>}
      </CCardHeader>
      <CCardBody>{children}</CCardBody>
    </CCard>
  );
}

/** A section's spinner while its call is in flight. */
export function SectionLoading({ what }: { what: string }) {
  return (
    <div className="money-section-state" role="status" aria-label={`Loading ${what}`}>
      <CSpinner color="primary" aria-hidden="true" />
    </div>
  );
}

/** A row of buttons of which one is chosen (the return period, the chart's resolution), as the calendar's view. */
export function ChoiceButtons<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T | undefined;
  options: Record<T, string>;
  onChange: (value: T) => void;
}) {
  return (
    <CButtonGroup size="sm" role="group" aria-label={label}>
      {(Object.keys(options) as T[]).map((option) => (
        <CButton
          key={option}
          color="secondary"
          variant={option === value ? undefined : 'outline'}
          aria-pressed={option === value}
          onClick={() => onChange(option)}
        >
          {options[option]}
        </CButton>
      ))}
    </CButtonGroup>
  );
}
