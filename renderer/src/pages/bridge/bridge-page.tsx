import { api } from '../../api.js';
import { BridgeControl } from '../../components/bridge-control.js';
import { Notice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { useResource } from '../../lib/use-resource.js';
import { BridgeImportForm } from './bridge-import-form.js';
import { BridgeModels } from './bridge-models.js';
import { BridgeSettingsForm } from './bridge-settings-form.js';

export function BridgePage() {
  const status = useResource(api.bridgeStatus, []);
  return (
    <>
      <PageHeader title="Editor bridge" subtitle="A local daemon that lets Anthropic and OpenAI clients use the editor's models." />
      <Notice tone="warning" title="Deprecated and in beta">
        The bridge uses the editor's internal protocol, which may break when the editor updates. It is kept for migration; prefer a
        provider through the proxy.
      </Notice>
      <div class="grid-2">
        <BridgeControl status={status} title="Daemon" />
        <BridgeImportForm onImported={status.reload} />
      </div>
      <BridgeSettingsForm onSaved={status.reload} />
      {status.data?.authenticated && !status.data.tokenExpired ? <BridgeModels /> : null}
    </>
  );
}
