import { Suspense, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { CButton, CButtonGroup, CFormInput, CFormLabel, CFormRange, CFormSelect, CSpinner } from '@coreui/react';
import {
  decimalPlaces,
  groupDecimal,
  REPLAY_GRANULARITIES,
  REPLAY_LIMITS,
  type ReplayGranularity,
  type TradeListItem,
} from '@pipsense/contract';
import { fitLevels, granularityLabel, isIntraday, pricePrecision } from '../../../components/charts/candle-series';
import { formatDateTime, formatInstrument, formatSignedMoney } from '../../../components/data/format';
import { lazyChunk } from '../../../components/errors/lazy-chunk';
import { ApiError } from '../../../lib/api';
import { useTradeReplay } from '../api/trade-replay-api';
import {
  markerSpots,
  REPLAY_SPEEDS,
  replayFrame,
  replayEventLabel,
  replayKeyAction,
  replayModel,
  startIndex,
  stepMs,
  type ReplayFigure,
  type ReplaySpeed,
} from '../model/replay-frame';
import { TradeChart } from './trade-chart';

const LazyReplayChart = lazyChunk('replay-chart', () => import('./replay-chart'), 'ReplayChart');

const signed = (value: number, places: number) => `${value > 0 ? '+' : ''}${value.toFixed(places)}`;

/** '4,000 units'. */
const unitsText = (units: string) => `${groupDecimal(units, decimalPlaces(units))} units`;

/** '+12.3 pips · +123.00 USD · +0.62 R'; money and R left out when unknown. */
function figureText(figure: ReplayFigure | null, currency: string | null): string {
  if (!figure) return '-';
  const parts = [`${signed(figure.pips, 1)} pips`];
  if (figure.money !== null) parts.push(formatSignedMoney(figure.money, currency));
  if (figure.r !== null) parts.push(`${signed(figure.r, 2)} R`);
  return parts.join(' · ');
}

function ReplayState({ children, alert = false }: { children: React.ReactNode; alert?: boolean }) {
  return (
    <div className="trade-chart-frame trade-chart-state flex-column text-center" role={alert ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

function ReplayLoading() {
  return (
    <ReplayState>
      <CSpinner size="sm" color="primary" aria-hidden="true" />
      <span>Loading the replay's candles…</span>
    </ReplayState>
  );
}

const isField = (target: EventTarget) =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

/**
 * The trade replayed candle by candle (docs/review.md, Replay): the candles up to the current one, the entry, stop,
 * target and exit appearing when they happened, and the open P/L, MAE and MFE so far. Space plays or pauses and the
 * arrows step while the replay has the focus; Escape stays the modal's.
 */
function TradeReplay({ base, trade }: { base: string; trade: TradeListItem }) {
  const [granularity, setGranularity] = useState<ReplayGranularity | null>(null);
  const [before, setBefore] = useState<number>(REPLAY_LIMITS.defaultBefore);
  const [beforeText, setBeforeText] = useState(String(REPLAY_LIMITS.defaultBefore));
  const query = useTradeReplay(base, { accountId: trade.accountId, tradeId: trade.tradeId, granularity, before });
  const replay = query.data;
  const model = useMemo(() => (replay ? replayModel(replay) : null), [replay]);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<ReplaySpeed>(5);
  const panel = useRef<HTMLElement>(null);
  const last = model ? model.bars.length - 1 : 0;

  // A new replay (another granularity or start) starts again just before the entry, paused: state adjusted while
  // rendering, as React advises for state that follows a prop.
  const [shown, setShown] = useState(model);
  if (shown !== model) {
    setShown(model);
    if (model) setIndex(startIndex(model));
    setPlaying(false);
  }
  // It stops at the last candle.
  const running = playing && index < last;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setIndex((i) => Math.min(last, i + 1)), stepMs(speed));
    return () => clearInterval(timer);
  }, [running, speed, last]);

  // The keys work as soon as the replay is there.
  const loaded = model !== null;
  useEffect(() => {
    if (loaded) panel.current?.focus({ preventScroll: true });
  }, [loaded]);

  const frame = useMemo(() => (model ? replayFrame(model, index) : null), [model, index]);
  const step = (by: number) => {
    setPlaying(false);
    setIndex((i) => Math.max(0, Math.min(last, i + by)));
  };
  const toggle = () => {
    if (running) return setPlaying(false);
    if (index >= last && model) setIndex(startIndex(model));
    setPlaying(true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (isField(event.target)) return;
    const action = replayKeyAction(event.key);
    // A focused button does its own thing on Space.
    if (!action || (action === 'toggle' && event.target instanceof HTMLButtonElement)) return;
    event.preventDefault();
    if (action === 'toggle') toggle();
    else step(action === 'back' ? -1 : 1);
  };
  const commitBefore = () => {
    const n = Number(beforeText);
    if (Number.isInteger(n) && n >= 0 && n <= REPLAY_LIMITS.maxBefore) setBefore(n);
    else setBeforeText(String(before));
  };

  const shownGranularity = granularity ?? replay?.granularity ?? null;
  const title = `${formatInstrument(trade.instrument)}${shownGranularity ? ` · ${granularityLabel(shownGranularity)} candles` : ''}`;
  const precision = useMemo(() => (replay ? pricePrecision(replay.candles, replay.entryPrice) : 5), [replay]);
  const spots = useMemo(() => (model ? markerSpots(model) : []), [model]);
  const fitted = useMemo(() => (frame ? fitLevels(frame.bars, frame.lines, precision) : null), [frame, precision]);

  let body;
  if (query.isPending) body = <ReplayLoading />;
  else if (query.isError) {
    const error = query.error;
    const unavailable = error instanceof ApiError && error.status === 409;
    body = (
      <ReplayState alert>
        <span className={unavailable ? 'fw-semibold' : 'text-danger fw-semibold'}>
          {unavailable ? 'This trade cannot be replayed.' : 'The replay could not be loaded.'}
        </span>
        <span className="text-body-secondary small">{error.message}</span>
        {!unavailable && (
          <CButton size="sm" color="danger" variant="outline" onClick={() => void query.refetch()}>
            Try again
          </CButton>
        )}
      </ReplayState>
    );
  } else if (model && frame && fitted)
    body = (
      <Suspense fallback={<ReplayLoading />}>
        <div className="trade-chart-frame">
          <LazyReplayChart
            bars={frame.bars}
            total={model.bars.length}
            lines={fitted.lines}
            edges={fitted.edges}
            markers={frame.markers}
            spots={spots}
            precision={precision}
            intraday={isIntraday(model.replay.granularity)}
            className="trade-chart-canvas"
            label={`${title}, replayed to candle ${index + 1} of ${model.bars.length}`}
          />
          {query.isFetching && (
            <div className="replay-refetch" role="status">
              <CSpinner size="sm" color="primary" aria-hidden="true" /> Loading…
            </div>
          )}
        </div>
      </Suspense>
    );

  const current = model?.replay.candles[Math.min(index, last)];
  return (
    <section
      ref={panel}
      className="trade-replay mb-4"
      aria-label="Replay"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      aria-keyshortcuts="Space ArrowLeft ArrowRight"
    >
      <div className="replay-controls mb-2">
        <CButtonGroup size="sm" role="group" aria-label="Replay controls">
          <CButton color="secondary" variant="outline" onClick={() => step(-1)} disabled={!model || index <= 0}>
            <span aria-hidden="true">◀</span> Back
          </CButton>
          <CButton color="primary" onClick={toggle} disabled={!model} aria-pressed={running}>
            {running ? 'Pause' : 'Play'}
          </CButton>
          <CButton color="secondary" variant="outline" onClick={() => step(1)} disabled={!model || index >= last}>
            Forward <span aria-hidden="true">▶</span>
          </CButton>
        </CButtonGroup>
        <div className="replay-field">
          <CFormLabel htmlFor="replay-speed" className="small mb-0">
            Speed
          </CFormLabel>
          <CFormSelect
            id="replay-speed"
            size="sm"
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value) as ReplaySpeed)}
          >
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </CFormSelect>
        </div>
        <div className="replay-field">
          <CFormLabel htmlFor="replay-granularity" className="small mb-0">
            Candles
          </CFormLabel>
          <CFormSelect
            id="replay-granularity"
            size="sm"
            value={shownGranularity ?? ''}
            disabled={!shownGranularity}
            onChange={(e) => setGranularity(e.target.value as ReplayGranularity)}
          >
            {REPLAY_GRANULARITIES.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </CFormSelect>
        </div>
        <div className="replay-field">
          <CFormLabel htmlFor="replay-before" className="small mb-0 text-nowrap">
            Candles before entry
          </CFormLabel>
          <CFormInput
            id="replay-before"
            size="sm"
            type="number"
            min={0}
            max={REPLAY_LIMITS.maxBefore}
            value={beforeText}
            onChange={(e) => setBeforeText(e.target.value)}
            onBlur={commitBefore}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitBefore();
            }}
          />
        </div>
      </div>
      <h3 className="h6 mb-2">{title}</h3>
      {body}
      {model && frame && (
        <>
          <CFormRange
            className="mt-2"
            min={0}
            max={last}
            value={index}
            aria-label="Replay position"
            aria-valuetext={current ? `Candle ${index + 1} of ${last + 1}, ${formatDateTime(current.time)}` : undefined}
            onChange={(e) => {
              setPlaying(false);
              setIndex(Number(e.target.value));
            }}
          />
          <div className="d-flex flex-wrap justify-content-between gap-2 small text-body-secondary">
            <span>
              Candle {index + 1} of {last + 1}
              {current ? ` · ${formatDateTime(current.time)}` : ''}
            </span>
            <span className="d-none d-sm-inline">Space plays or pauses · ← → step</span>
          </div>
          <dl className="replay-figures mt-2" aria-label="Replay figures">
            <div>
              <dt>{frame.phase === 'closed' ? 'Result' : 'Open P/L'}</dt>
              <dd>
                {frame.phase === 'before' ? 'Not entered yet' : figureText(frame.pl, model.replay.currency)}
                {frame.phase === 'open' && frame.realized && ` on ${unitsText(frame.openUnits)} open`}
              </dd>
            </div>
            {frame.realized && (
              <div>
                <dt>{frame.phase === 'closed' ? 'Partial closes' : 'Realized so far'}</dt>
                <dd>
                  {figureText(frame.realized, model.replay.currency)} on {unitsText(frame.realized.units)}
                </dd>
              </div>
            )}
            <div>
              <dt>MAE so far</dt>
              <dd>{figureText(frame.mae, model.replay.currency)}</dd>
            </div>
            <div>
              <dt>MFE so far</dt>
              <dd>{figureText(frame.mfe, model.replay.currency)}</dd>
            </div>
          </dl>
          {frame.happened.length > 0 && (
            <ol className="replay-events small mb-0" aria-label="Events so far">
              {frame.happened.map((e, i) => (
                <li key={`${e.kind}:${e.time}:${i}`}>
                  <span className="fw-semibold">{replayEventLabel(e)}</span>
                  {e.price !== null ? ` ${e.price}` : ''}
                  {e.units !== null && (e.kind === 'partial_close' || e.kind === 'exit')
                    ? `, ${unitsText(e.units)}`
                    : ''}{' '}
                  · {formatDateTime(e.time)}
                </li>
              ))}
            </ol>
          )}
          {model.replay.pipValue === null && (
            <p className="small text-body-secondary mt-2 mb-0">
              P/L in money is not shown: the value of a pip in the account currency is not known for this trade.
            </p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * The trade details' chart with its Replay mode: the static chart of the trade (trade-chart.tsx), or the replay.
 * The modal holds only this, so the replay's parts stay in their own files.
 */
export function TradeChartPanel({ base, trade }: { base: string; trade: TradeListItem }) {
  const [mode, setMode] = useState<'chart' | 'replay'>('chart');
  return (
    <>
      <CButtonGroup size="sm" role="group" aria-label="Chart mode" className="mb-2">
        <CButton
          color="secondary"
          variant={mode === 'chart' ? undefined : 'outline'}
          aria-pressed={mode === 'chart'}
          onClick={() => setMode('chart')}
        >
          Chart
        </CButton>
        <CButton
          color="secondary"
          variant={mode === 'replay' ? undefined : 'outline'}
          aria-pressed={mode === 'replay'}
          onClick={() => setMode('replay')}
        >
          Replay
        </CButton>
      </CButtonGroup>
      {mode === 'chart' ? <TradeChart base={base} trade={trade} /> : <TradeReplay base={base} trade={trade} />}
    </>
  );
}
