import type { Anomaly } from '../../api-types.js';
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

export function AnomalyList(props: { anomalies: Anomaly[] }) {
  if (props.anomalies.length === 0) return <Empty>No anomalies in this period.</Empty>;
  return (
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
  );
}
