import { api } from '../../api.js';
import type { Insights } from '../../api-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { pending, useResource } from '../../lib/use-resource.js';
import { AnomalyList } from '../usage/anomaly-list.js';
import { useUsageZone } from '../usage/use-usage-zone.js';
import { ScanNote } from './scan-note.js';
import type { ScanState } from './use-scan-status.js';

/** The latest five anomalies with the baseline they were judged against (as on Usage). */
export function RecentAnomalies(props: { scan: ScanState }) {
  const zone = useUsageZone();
  const { scanning, progress, settled } = props.scan;
  const insights = useResource(() => (zone && settled ? api.usageInsights({ tz: zone }) : pending<Insights>()), [zone, settled]);
  useLiveReload(['anomaly', 'usage-refreshed'], () => void insights.reload(), 0);
  const d = insights.data;
  return (
    <section class="panel" aria-labelledby="ov-anomalies">
      <header class="panel-head">
        <h2 id="ov-anomalies">Anomalies</h2>
        <a href={href('usage')}>All usage</a>
      </header>
      <ErrorNotice error={insights.error} />
      {!d && !insights.error ? scanning ? <ScanNote progress={progress} /> : <Loading what="anomalies" /> : null}
      {d ? <AnomalyList anomalies={d.anomalies.slice(0, 5)} baseline={d.baseline} /> : null}
    </section>
  );
}
