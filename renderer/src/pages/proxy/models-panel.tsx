import { api } from '../../api.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';

/** Models the running proxy offers, grouped by owner. Asks only when the proxy runs (else 503). */
export function ModelsPanel() {
  const status = useResource(api.proxyStatus, []);
  const running = status.data?.running === true;
  const models = useResource(() => (running ? api.proxyModels() : Promise.resolve(null)), [running]);
  useLiveReload(['proxy-state'], status.reload, 10_000);
  const m = models.data;
  return (
    <section class="panel" aria-labelledby="models-title">
      <header class="panel-head">
        <h2 id="models-title">Models by category</h2>
        {m ? <span class="muted">{m.totalCount} models</span> : null}
      </header>
      <ErrorNotice error={status.error ?? models.error} />
      {(!status.data && status.loading) || (running && !m && models.loading) ? <Loading what="models" /> : null}
      {status.data && !running ? (
        <Empty>
          The proxy is not running, so it cannot list its models. <a href={href('proxy', 'status')}>Start it</a>.
        </Empty>
      ) : null}
      {m && m.totalCount === 0 ? <Empty>The proxy reports no models. Add an upstream or sign in to a provider.</Empty> : null}
      {m
        ? Object.entries(m.byCategory).map(([owner, list]) => (
            <div class="model-group" key={owner}>
              <h3>
                {owner} <span class="muted">({list.length})</span>
              </h3>
              <ul class="chips">
                {list.map((model) => (
                  <li key={model.id}>
                    <code>{model.id}</code>
                  </li>
                ))}
              </ul>
            </div>
          ))
        : null}
    </section>
  );
}
