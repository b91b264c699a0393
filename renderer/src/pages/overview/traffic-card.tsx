import { ErrorNotice, Loading } from '../../components/notice.js';
import { href } from '../../lib/router.js';
import { ModelName } from '../traffic/model-name.js';
import { clockTime, percent } from '../traffic/traffic-format.js';
import { formatRate } from '../traffic/traffic-stats.js';
import { useRequestStats } from '../traffic/use-request-stats.js';

/** Requests per minute, error rate and the last error, linking to the Traffic view and its log. */
export function TrafficCard() {
  const stats = useRequestStats();
  const s = stats.data;
  return (
    <section class="panel" aria-labelledby="ov-traffic" data-testid="overview-traffic">
      <header class="panel-head">
        <h2 id="ov-traffic">Proxy traffic</h2>
        <a href={href('traffic')}>Traffic</a>
      </header>
      {!s && stats.loading ? <Loading what="traffic" /> : null}
      <ErrorNotice error={stats.error} context="Traffic" />
      {s ? (
        <dl class="facts">
          <dt>Requests per minute</dt>
          <dd data-testid="ov-rpm">{formatRate(s.requestsPerMinute)} (last 5 minutes)</dd>
          <dt>Error rate</dt>
          <dd data-testid="ov-error-rate">{s.errorRate === null ? 'no requests in the last hour' : `${percent(s.errorRate)} of the last hour`}</dd>
          <dt>Last error</dt>
          <dd data-testid="ov-last-error">
            {s.lastError ? (
              <>
                {s.lastError.status} <ModelName entry={s.lastError} /> at {clockTime(s.lastError.time)}
                {s.lastError.error ? <span class="muted"> — {s.lastError.error.slice(0, 120)}</span> : null}{' '}
                {s.lastError.errorLog ? <a href={href('proxy', 'logs', s.lastError.errorLog)}>Error log</a> : <a href={href('traffic')}>In Traffic</a>}
              </>
            ) : (
              'none kept'
            )}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}
