import { api } from '../../api.js';
import type { Insights } from '../../api-types.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { isoDay } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { pending, useResource } from '../../lib/use-resource.js';
import { AnomalyList, BaselineNote } from '../usage/anomaly-list.js';
import { useUsageZone } from '../usage/use-usage-zone.js';
import { RECENT_DAYS, splitRecent } from './recent-days.js';
import { ScanNote } from './scan-note.js';
import type { ScanState } from './use-scan-status.js';

/**
 * Anomalies of the last 7 days (the latest five) as alerts, with the baseline they were judged
 * against; older ones are only counted here and listed on the Usage page (issue 28.4).
 */
export function RecentAnomalies(props: { scan: ScanState }) {
  const zone = useUsageZone();
  const { scanning, progress, settled } = props.scan;
  const insights = useResource(() => (zone && settled ? api.usageInsights({ tz: zone }) : pending<Insights>()), [zone, settled]);
  useLiveReload(['anomaly', 'usage-refreshed'], () => void insights.reload(), 0);
  const d = insights.data;
  const split = d && zone ? splitRecent(d.anomalies, isoDay(new Date(), zone)) : null;
  return (
    <section class="panel" aria-labelledby="ov-anomalies" data-testid="recent-anomalies">
      <header class="panel-head">
        <h2 id="ov-anomalies">Anomalies · last {RECENT_DAYS} days</h2>
        <a href={href('usage')}>All usage</a>
      </header>
      <ErrorNotice error={insights.error} />
      {!d && !insights.error ? scanning ? <ScanNote progress={progress} /> : <Loading what="anomalies" /> : null}
      {d && split ? (
        split.recent.length > 0 ? (
          <AnomalyList anomalies={split.recent.slice(0, 5)} baseline={d.baseline} />
        ) : (
          <>
            <BaselineNote baseline={d.baseline} />
            <Empty>Nothing needs attention: no anomalies in the last {RECENT_DAYS} days.</Empty>
          </>
        )
      ) : null}
      {split && split.older.length > 0 ? (
        <p class="muted" data-testid="older-anomalies">
          {split.older.length} older {split.older.length === 1 ? 'anomaly is' : 'anomalies are'} listed on the <a href={href('usage')}>Usage page</a>.
        </p>
      ) : null}
    </section>
  );
}
