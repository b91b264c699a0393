import type { Anomaly, InsightsBaseline } from '../../api-types.js';
import { Empty } from '../../components/notice.js';
import { formatCost, formatInt } from '../../lib/format.js';

const TITLES: Record<string, string> = {
  cost_spike: 'Cost spike',
  high_input: 'High input',
  high_io_ratio: 'High input/output ratio',
  high_cache_read: 'High cache read',
};

function show(type: string, n: number): string {
  if (type === 'cost_spike') return formatCost(n);
  if (type === 'high_io_ratio') return `${n.toFixed(1)} : 1`;
  return formatInt(n);
}

/**
 * The one average every anomaly is judged against, named with its period; Overview and Usage
 * both show it in these words, so the two pages never disagree about "average".
 */
export function BaselineNote(props: { baseline: InsightsBaseline | null | undefined }) {
  const b = props.baseline;
  if (!b || b.days === 0) return null;
  return (
    <p class="muted baseline-note" data-testid="anomaly-baseline">
      Judged against {formatCost(b.averageDailyCost)} a day: the average of the {b.days} {b.days === 1 ? 'day' : 'days'} with usage
      {b.since ? ` from ${b.since} to ${b.until}` : ''}.
    </p>
  );
}

export function AnomalyList(props: { anomalies: Anomaly[]; baseline?: InsightsBaseline | null }) {
  if (props.anomalies.length === 0) return <><BaselineNote baseline={props.baseline} /><Empty>No anomalies in this period.</Empty></>;
  return (
    <>
    <BaselineNote baseline={props.baseline} />
    <ul class="anomalies" data-testid="anomalies">
      {props.anomalies.map((a) => (
        <li key={`${a.type}-${a.date}`} class="anomaly">
          <span class="badge badge-warn">
            <span aria-hidden="true">⚠</span> {TITLES[a.type] ?? a.type}
          </span>
          <span class="anomaly-date">{a.date}</span>
          <span class="anomaly-text">{a.message}</span>
          <span class="muted anomaly-figures">
            {show(a.type, a.value)} (limit {show(a.type, a.threshold)})
          </span>
        </li>
      ))}
    </ul>
    </>
  );
}
