import { api } from '../../api.js';
import { DataTable } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { useResource } from '../../lib/use-resource.js';

export function BridgeModels() {
  const models = useResource(api.bridgeModels, []);
  return (
    <section class="panel" aria-labelledby="bridge-models-title">
      <h2 id="bridge-models-title">Bridge models</h2>
      <ErrorNotice error={models.error} />
      {!models.data && models.loading ? <Loading what="models" /> : null}
      {models.data?.models.length === 0 ? <Empty>No models reported.</Empty> : null}
      {models.data && models.data.models.length > 0 ? (
        <DataTable
          caption="Bridge models"
          captionHidden
          rows={models.data.models}
          rowKey={(m) => m.id}
          columns={[
            { key: 'id', label: 'Model', render: (m) => <code>{m.id}</code> },
            { key: 'provider', label: 'Provider', render: (m) => m.provider },
            { key: 'def', label: 'Default', render: (m) => (m.isDefault || m.id === models.data?.current ? '✓ default' : '') },
          ]}
        />
      ) : null}
    </section>
  );
}
