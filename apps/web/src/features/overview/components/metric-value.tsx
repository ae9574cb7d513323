import { EMPTY_CELL } from '../../../components/data/format';
import { metricShape, type MetricPair, type MetricValueInput } from '../model/metric-value';

interface MetricValueProps {
  value: MetricValueInput;
  /**
   * 'inline' puts each label beside its value (short figures); 'stacked' puts the label above (sentences, as in the
   * insight cards).
   */
  layout?: 'inline' | 'stacked';
  /** Shown instead of a nested list's own keys, e.g. EUR_USD → EUR/USD. */
  groupLabel?: (key: string) => string;
}

function Pairs({ pairs, layout }: { pairs: readonly MetricPair[]; layout: 'inline' | 'stacked' }) {
  return (
    <dl className={`metric-pairs metric-pairs-${layout} mb-0`}>
      {pairs.map(([label, value]) => (
        <div key={label} className="metric-pair">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One card value in whichever of the spec's four shapes it has; an empty value shows '-'. */
export function MetricValue({ value, layout = 'inline', groupLabel = (key) => key }: MetricValueProps) {
  const shape = metricShape(value);
  switch (shape.kind) {
    case 'empty':
      return <span className="metric-empty">{EMPTY_CELL}</span>;
    case 'plain':
      return <span className="metric-plain">{shape.text}</span>;
    case 'list':
      return (
        <ul className="metric-list mb-0">
          {shape.items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      );
    case 'pairs':
      return <Pairs pairs={shape.pairs} layout={layout} />;
    case 'nested':
      return (
        <div className="metric-nested">
          {shape.pairs.length > 0 && <Pairs pairs={shape.pairs} layout={layout} />}
          <div className="metric-groups">
            {shape.groups.map((group) => (
              <section key={group.label} className="metric-group" aria-label={groupLabel(group.label)}>
                <h4 className="metric-group-title">{groupLabel(group.label)}</h4>
                {group.pairs.length > 0 ? (
                  <Pairs pairs={group.pairs} layout={layout} />
                ) : (
                  <span className="metric-empty">{EMPTY_CELL}</span>
                )}
              </section>
            ))}
          </div>
        </div>
      );
  }
}
