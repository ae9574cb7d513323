import { useId, useRef, useState, type DragEvent } from 'react';
import { CButton, CCard, CCardBody, CFormLabel, CFormSelect, CFormText } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilCloudUpload, cilDescription } from '@coreui/icons';
import { useMappings } from '../api/import-api';
import { formatBytes, IMPORT_ACCEPT, looksLikeCsv } from '../model/import-file';
import { offsetLabel, UTC_OFFSETS } from '../model/utc-offsets';
import { BROKER_TIME_CHOICES, isBrokerTimeChoice, type BrokerTimeChoice } from '../model/broker-time';

interface FileStepProps {
  file: File | null;
  onFile: (file: File) => void;
  brokerTime: BrokerTimeChoice;
  onBrokerTime: (choice: BrokerTimeChoice) => void;
  offset: string;
  onOffset: (offset: string) => void;
  mappingId: string;
  onMapping: (id: string) => void;
  /** Read the chosen file (upload it). */
  onRead: () => void;
  busy: boolean;
  /** Why the chosen file cannot be read (too large, empty): Read stays off. */
  problem: string | null;
}

/** Step 1: the report file (dropped or picked), the broker's server time and, for a CSV, a saved column mapping. */
export function FileStep(props: FileStepProps) {
  const { file, onFile, brokerTime, onBrokerTime, offset, onOffset, mappingId, onMapping, onRead, busy, problem } =
    props;
  const inputId = useId();
  const ruleId = useId();
  const offsetId = useId();
  const mappingSelectId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const csv = file !== null && looksLikeCsv(file);
  const mappings = useMappings(csv);
  const saved = mappings.data ?? [];

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !busy) onFile(dropped);
  };

  return (
    <CCard className="mb-4 import-card">
      <CCardBody>
        <h2 className="h5 mb-1">Import a MetaTrader 4/5 report</h2>
        <p className="text-body-secondary mb-3">
          Upload the account history your terminal saves: an MT4 Detailed Statement (HTML), an MT5 trade history report
          (HTML or Excel), or a CSV. PipSense shows what it read before anything is stored.
        </p>
        <div
          className={`import-drop text-center${dragging ? ' import-drop-active' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="import-drop-zone"
        >
          <CIcon icon={file ? cilDescription : cilCloudUpload} size="xxl" className="text-primary mb-2" aria-hidden />
          {file ? (
            <p className="mb-2 text-break">
              <strong>{file.name}</strong> <span className="text-body-secondary">· {formatBytes(file.size)}</span>
            </p>
          ) : (
            <p className="mb-2">Drop the report here, or</p>
          )}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept={IMPORT_ACCEPT}
            className="visually-hidden"
            disabled={busy}
            onChange={(event) => {
              const picked = event.target.files?.[0];
              if (picked) onFile(picked);
              event.target.value = '';
            }}
          />
          <CFormLabel htmlFor={inputId} className="btn btn-outline-primary mb-0">
            {file ? 'Choose another file' : 'Choose a file'}
          </CFormLabel>
          <CFormText className="d-block mt-2">.htm, .html, .xlsx, .csv or .txt, up to 50 MB.</CFormText>
        </div>

        <div className="row g-3 mt-1">
          <div className="col-12 col-md-6">
            <CFormLabel htmlFor={ruleId}>Broker server time</CFormLabel>
            <CFormSelect
              id={ruleId}
              value={brokerTime}
              disabled={busy}
              onChange={(event) => {
                if (isBrokerTimeChoice(event.target.value)) onBrokerTime(event.target.value);
              }}
              aria-describedby={`${ruleId}-hint`}
            >
              {BROKER_TIME_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </CFormSelect>
            <CFormText id={`${ruleId}-hint`}>
              Reports print times in the broker&apos;s server time, without a zone. Most MetaTrader brokers run at
              UTC+2, UTC+3 in summer (when New York changes its clocks); the terminal&apos;s Market Watch clock shows
              it. Each trade is read by its own date.
            </CFormText>
            {brokerTime === 'fixed' && (
              <div className="mt-2">
                <CFormLabel htmlFor={offsetId}>Fixed UTC offset</CFormLabel>
                <CFormSelect
                  id={offsetId}
                  value={offset}
                  disabled={busy}
                  onChange={(event) => onOffset(event.target.value)}
                >
                  {UTC_OFFSETS.map((o) => (
                    <option key={o} value={o}>
                      {offsetLabel(o)}
                    </option>
                  ))}
                </CFormSelect>
              </div>
            )}
          </div>
          {csv && saved.length > 0 && (
            <div className="col-12 col-md-6">
              <CFormLabel htmlFor={mappingSelectId}>CSV column mapping</CFormLabel>
              <CFormSelect
                id={mappingSelectId}
                value={mappingId}
                disabled={busy}
                onChange={(event) => onMapping(event.target.value)}
              >
                <option value="">Read the columns from the header</option>
                {saved.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </CFormSelect>
              <CFormText>A mapping you saved for another export of the same kind.</CFormText>
            </div>
          )}
        </div>

        <div className="d-flex justify-content-end mt-4">
          <CButton color="primary" disabled={file === null || busy || problem !== null} onClick={onRead}>
            Read the report
          </CButton>
        </div>
      </CCardBody>
    </CCard>
  );
}
