import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CAlert, CButton, CCard, CCardBody } from '@coreui/react';
import type {
  CsvMappingBody,
  ImportConfirmBody,
  ImportConfirmResponse,
  ImportUploadResponse,
} from '@pipsense/contract';
import { platformState } from '../../../components/data/use-platform-paging';
import { paths } from '../../../config/paths';
import { ApiError, failureMessage } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { cancelImport, confirmImport, saveMapping, uploadReport } from '../api/import-api';
import { fileProblem } from '../model/import-file';
import { DEFAULT_OFFSET } from '../model/utc-offsets';
import type { BrokerTimeChoice } from '../model/broker-time';
import { FileStep } from './file-step';
import { MappingStep } from './mapping-step';
import { PreviewStep } from './preview-step';
import { UploadProgress, type UploadState } from './upload-progress';
import '../import.css';

type Stage =
  | { step: 'file' }
  | { step: 'upload'; upload: UploadState }
  | { step: 'mapping'; columns: string[]; missing: string[] }
  | { step: 'preview'; result: ImportUploadResponse }
  | { step: 'done'; result: ImportConfirmResponse };

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A CSV whose columns the server could not place: the mapping step can fix it. */
function missingColumns(error: unknown): { columns: string[]; missing: string[] } | null {
  if (!(error instanceof ApiError) || error.code !== 'MISSING_COLUMN') return null;
  const columns = strings(error.details?.columns);
  return columns.length > 0 ? { columns, missing: strings(error.details?.missing) } : null;
}

/** The preview is gone on the server (another user's, expired, already confirmed): only a new upload helps. */
const previewGone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 410);

/**
 * Import a MetaTrader 4/5 report (or a CSV): file → upload with progress → preview → confirm or cancel, with
 * the CSV column-mapping step when the server asks for it. Every failure shows the server's message as text.
 */
export function ImportPage() {
  const client = useQueryClient();
  const [stage, setStage] = useState<Stage>({ step: 'file' });
  const [file, setFile] = useState<File | null>(null);
  const [brokerTime, setBrokerTime] = useState<BrokerTimeChoice>('');
  const [offset, setOffset] = useState(DEFAULT_OFFSET);
  const [mappingId, setMappingId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'confirm' | 'cancel' | 'mapping' | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const chooseFile = (next: File) => {
    setFile(next);
    // Another file may be another account's: its remembered rule applies until the trader picks one.
    setBrokerTime('');
    setMappingId('');
    setNotice(null);
    setError(fileProblem(next));
  };

  async function read(withMapping = mappingId) {
    if (file === null || stage.step === 'upload') return;
    const problem = fileProblem(file);
    setNotice(null);
    setError(problem);
    if (problem) return;
    const controller = new AbortController();
    abort.current = controller;
    setStage({ step: 'upload', upload: { phase: 'sending', sent: 0, total: file.size } });
    try {
      const result = await uploadReport(
        { file, brokerTime, serverUtcOffset: offset, mappingId: withMapping },
        {
          signal: controller.signal,
          onProgress: (sent, total) => setStage({ step: 'upload', upload: { phase: 'sending', sent, total } }),
          onSent: () => setStage({ step: 'upload', upload: { phase: 'reading' } }),
        },
      );
      setStage({ step: 'preview', result });
      // The rule the server used (the account's remembered one, or the default) is the one offered next time.
      setBrokerTime(result.preview.brokerTime);
      if (result.preview.serverUtcOffset) setOffset(result.preview.serverUtcOffset);
    } catch (failure) {
      if (controller.signal.aborted) return;
      const mapping = missingColumns(failure);
      setError(failureMessage(failure, 'The report could not be read.'));
      setStage(mapping ? { step: 'mapping', ...mapping } : { step: 'file' });
    }
  }

  async function saveAndRead(mapping: CsvMappingBody) {
    setBusy('mapping');
    setError(null);
    try {
      const saved = await saveMapping(mapping);
      await client.invalidateQueries({ queryKey: queryKeys.importMappings });
      setMappingId(saved.data.id);
      setBusy(null);
      await read(saved.data.id);
    } catch (failure) {
      setBusy(null);
      setError(failureMessage(failure, 'The mapping could not be saved.'));
    }
  }

  async function confirm(importId: string, body: ImportConfirmBody) {
    setBusy('confirm');
    setError(null);
    try {
      const result = await confirmImport(importId, body);
      setStage({ step: 'done', result });
      // New trades and accounts (which may cross a rule set's alert threshold); the server may also have made
      // MetaTrader the default platform.
      for (const queryKey of [
        queryKeys.tradeHistory.all,
        queryKeys.accounts.all,
        queryKeys.dashboardMetrics.all,
        queryKeys.calendar.all,
        queryKeys.info,
        queryKeys.rules.alerts,
      ])
        void client.invalidateQueries({ queryKey });
    } catch (failure) {
      setError(failureMessage(failure, 'The import could not be confirmed.'));
      if (previewGone(failure)) setStage({ step: 'file' });
    } finally {
      setBusy(null);
    }
  }

  async function cancel(importId: string) {
    setBusy('cancel');
    setError(null);
    try {
      await cancelImport(importId);
      setNotice('Import cancelled: nothing was stored.');
      setStage({ step: 'file' });
    } catch (failure) {
      setError(failureMessage(failure, 'The import could not be cancelled.'));
      if (previewGone(failure)) setStage({ step: 'file' });
    } finally {
      setBusy(null);
    }
  }

  const startAgain = () => {
    setFile(null);
    setBrokerTime('');
    setMappingId('');
    setError(null);
    setNotice(null);
    setStage({ step: 'file' });
  };

  return (
    <div className="import-page">
      {error && (
        <CAlert color="danger" role="alert" className="text-break">
          {error}
        </CAlert>
      )}
      {notice && (
        <CAlert color="info" role="status">
          {notice}
        </CAlert>
      )}
      {stage.step === 'file' && (
        <FileStep
          file={file}
          onFile={chooseFile}
          brokerTime={brokerTime}
          onBrokerTime={setBrokerTime}
          offset={offset}
          onOffset={setOffset}
          mappingId={mappingId}
          onMapping={setMappingId}
          onRead={() => void read()}
          busy={false}
          problem={file ? fileProblem(file) : null}
        />
      )}
      {stage.step === 'upload' && (
        <>
          <UploadProgress state={stage.upload} name={file?.name ?? ''} />
          <div className="d-flex justify-content-end mb-4">
            <CButton color="primary" disabled>
              Read the report
            </CButton>
          </div>
        </>
      )}
      {stage.step === 'mapping' && (
        <MappingStep
          columns={stage.columns}
          missing={stage.missing}
          fileName={file?.name ?? ''}
          saving={busy === 'mapping'}
          onSave={(mapping) => void saveAndRead(mapping)}
          onBack={() => {
            setError(null);
            setStage({ step: 'file' });
          }}
        />
      )}
      {stage.step === 'preview' && (
        <PreviewStep
          upload={stage.result}
          fileName={file?.name ?? ''}
          confirming={busy === 'confirm'}
          cancelling={busy === 'cancel'}
          onConfirm={(body) => void confirm(stage.result.importId, body)}
          onCancel={() => void cancel(stage.result.importId)}
        />
      )}
      {stage.step === 'done' && <ImportDone result={stage.result} onAnother={startAgain} />}
    </div>
  );
}

const count = (n: number) => n.toLocaleString();

/** After the import: what it did, and where to look at it. */
function ImportDone({ result, onAnother }: { result: ImportConfirmResponse; onAnother: () => void }) {
  const total = result.added + result.updated + result.unchanged;
  return (
    <CCard className="mb-4 import-card">
      <CCardBody>
        <div role="status">
          <h2 className="h5">
            Imported {count(total)} {total === 1 ? 'trade' : 'trades'}: {count(result.added)} added,{' '}
            {count(result.updated)} updated, {count(result.unchanged)} unchanged
          </h2>
        </div>
        {result.message && <p className="text-body-secondary">{result.message}</p>}
        <div className="d-flex flex-wrap gap-2">
          <CButton as={Link} to={paths.trades} state={platformState('MetaTrader')} color="primary">
            See the trades
          </CButton>
          <CButton as={Link} to={paths.overview} state={platformState('MetaTrader')} color="primary" variant="outline">
            Open the Overview
          </CButton>
          <CButton color="secondary" variant="ghost" onClick={onAnother}>
            Import another report
          </CButton>
        </div>
      </CCardBody>
    </CCard>
  );
}
