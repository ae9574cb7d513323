import { useId, useState, type FormEvent } from 'react';
import {
  CButton,
  CCard,
  CCardBody,
  CCardHeader,
  CFormCheck,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CSpinner,
} from '@coreui/react';
import {
  CSV_DATE_ORDERS,
  CSV_FIELD_LABELS,
  CSV_FIELDS,
  CSV_REQUIRED_FIELDS,
  type CsvField,
  type CsvMappingBody,
} from '@pipsense/contract';
import { guessColumns } from '../model/mapping';

const DATE_ORDER_LABELS: Record<(typeof CSV_DATE_ORDERS)[number], string> = {
  ymd: 'Year-month-day (2025-10-31)',
  dmy: 'Day/month/year (31/10/2025)',
  mdy: 'Month/day/year (10/31/2025)',
};
const isRequired = (field: CsvField) => (CSV_REQUIRED_FIELDS as readonly CsvField[]).includes(field);

interface MappingStepProps {
  /** The file's column headers, as the server read them. */
  columns: readonly string[];
  /** The fields the server could not find. */
  missing: readonly string[];
  fileName: string;
  saving: boolean;
  onSave: (mapping: CsvMappingBody) => void;
  onBack: () => void;
}

/** The CSV step: which of the file's columns holds each field, how dates and decimals are written, a name to keep it. */
export function MappingStep({ columns, missing, fileName, saving, onSave, onBack }: MappingStepProps) {
  const id = useId();
  const [mapped, setMapped] = useState<Partial<Record<CsvField, string>>>(() => guessColumns(columns));
  const [dateOrder, setDateOrder] = useState<(typeof CSV_DATE_ORDERS)[number]>('ymd');
  const [decimalSeparator, setDecimalSeparator] = useState<'.' | ','>('.');
  const [timesAreUtc, setTimesAreUtc] = useState(false);
  const [name, setName] = useState(() => fileName.replace(/\.[^.]+$/, ''));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = Object.fromEntries(
      Object.entries(mapped).filter(([, header]) => header),
    ) as CsvMappingBody['columns'];
    onSave({ name, columns: chosen, dateOrder, decimalSeparator, timesAreUtc });
  };

  return (
    <CCard className="mb-4 import-card">
      <CCardHeader>
        <h2 className="h5 mb-0">Match the columns of {fileName}</h2>
      </CCardHeader>
      <CCardBody>
        <p className="text-body-secondary">
          PipSense could not find{' '}
          {missing.length > 0
            ? missing.map((m) => CSV_FIELD_LABELS[m as CsvField] ?? m).join(', ')
            : 'every column it needs'}{' '}
          in this CSV. Pick the column that holds each field (<span className="text-danger">*</span> required); the
          mapping is saved under its name for your next imports.
        </p>
        <form onSubmit={submit} noValidate>
          <div className="row g-3">
            {CSV_FIELDS.map((field) => (
              <div key={field} className="col-12 col-sm-6 col-lg-4">
                <CFormLabel htmlFor={`${id}-${field}`}>
                  {CSV_FIELD_LABELS[field]}
                  {isRequired(field) && (
                    <span className="text-danger" aria-hidden="true">
                      {' '}
                      *
                    </span>
                  )}
                </CFormLabel>
                <CFormSelect
                  id={`${id}-${field}`}
                  value={mapped[field] ?? ''}
                  required={isRequired(field)}
                  disabled={saving}
                  onChange={(event) => setMapped((prev) => ({ ...prev, [field]: event.target.value }))}
                >
                  <option value="">{isRequired(field) ? 'Choose a column' : 'Not in the file'}</option>
                  {columns.map((column) => (
                    <option key={column} value={column}>
                      {column}
                    </option>
                  ))}
                </CFormSelect>
              </div>
            ))}
            <div className="col-12 col-sm-6 col-lg-4">
              <CFormLabel htmlFor={`${id}-date-order`}>Date order</CFormLabel>
              <CFormSelect
                id={`${id}-date-order`}
                value={dateOrder}
                disabled={saving}
                onChange={(event) => setDateOrder(event.target.value as (typeof CSV_DATE_ORDERS)[number])}
              >
                {CSV_DATE_ORDERS.map((order) => (
                  <option key={order} value={order}>
                    {DATE_ORDER_LABELS[order]}
                  </option>
                ))}
              </CFormSelect>
            </div>
            <div className="col-12 col-sm-6 col-lg-4">
              <CFormLabel htmlFor={`${id}-decimal`}>Decimal separator</CFormLabel>
              <CFormSelect
                id={`${id}-decimal`}
                value={decimalSeparator}
                disabled={saving}
                onChange={(event) => setDecimalSeparator(event.target.value === ',' ? ',' : '.')}
              >
                <option value=".">Point (1234.56)</option>
                <option value=",">Comma (1234,56)</option>
              </CFormSelect>
            </div>
            <div className="col-12 col-sm-6 col-lg-4">
              <CFormLabel htmlFor={`${id}-name`}>Mapping name</CFormLabel>
              <CFormInput
                id={`${id}-name`}
                value={name}
                maxLength={80}
                disabled={saving}
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <div className="col-12">
              <CFormCheck
                id={`${id}-utc`}
                label="The times in this file are UTC already (otherwise the broker server time applies)"
                checked={timesAreUtc}
                disabled={saving}
                onChange={(event) => setTimesAreUtc(event.target.checked)}
              />
            </div>
          </div>
          <div className="d-flex flex-wrap justify-content-end gap-2 mt-4">
            <CButton color="secondary" variant="outline" disabled={saving} onClick={onBack}>
              Back
            </CButton>
            <CButton type="submit" color="primary" disabled={saving}>
              {saving && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Save mapping and read again
            </CButton>
          </div>
        </form>
      </CCardBody>
    </CCard>
  );
}
