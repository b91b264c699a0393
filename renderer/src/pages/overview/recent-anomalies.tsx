import { api } from '../../api.js';
import type { Insights, ScanProgress } from '../../api-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { pending, useResource } from '../../lib/use-resource.js';
import { AnomalyList } from '../usage/anomaly-list.js';
import { useUsageZone } from '../usage/use-usage-zone.js';
import { ScanNote } from './scan-note.js';

/** The latest five anomalies with the baseline they were judged against (as on Usage). */
export function RecentAnomalies(props: { scanning: boolean; progress: ScanProgress | null }) {
  const zone = useUsageZone();
  const insights = useResource(() => (zone ? api.usageInsights({ tz: zone }) : pending<Insights>()), [zone]);
  useLiveReload(['anomaly', 'usage-refreshed'], () => void insights.reload(), 0);
  const d = insights.data;
  return (
    <section class="panel" aria-labelledby="ov-anomalies">
      <header class="panel-head">
        <h2 id="ov-anomalies">Anomalies</h2>
        <a href={href('usage')}>All usage</a>
      </header>
      <ErrorNotice error={insights.error} />
      {!d && !insights.error ? props.scanning ? <ScanNote progress={props.progress} /> : <Loading what="anomalies" /> : null}
      {d ? <AnomalyList anomalies={d.anomalies.slice(0, 5)} baseline={d.baseline} /> : null}
    </section>
  );
}
