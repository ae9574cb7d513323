import type { EdgeLabel } from './candle-series';

/**
 * The levels a chart cannot show inside its candles (a stop far below, a target far above), named at the chart's top
 * and bottom edges instead of flattening the candles (candle-series.ts `fitLevels`). `describe` names a level in the
 * hover text ('Stop loss' for 'SL').
 */
export function EdgeLabels({
  edges,
  describe = (title) => title,
}: {
  edges: readonly EdgeLabel[];
  describe?: (title: string) => string;
}) {
  return (['top', 'bottom'] as const).map((edge) => {
    const labels = edges.filter((label) => label.edge === edge);
    return (
      labels.length > 0 && (
        <div key={edge} className={`chart-edge-labels chart-edge-${edge}`}>
          {labels.map((label) => (
            <span
              key={label.title}
              className="chart-edge-label"
              style={{ borderColor: label.color, color: label.color }}
              title={`${describe(label.title)} at ${label.price}, beyond the candles shown`}
            >
              {label.text}
            </span>
          ))}
        </div>
      )
    );
  });
}
