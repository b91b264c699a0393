import { api } from '../../api.js';
import { BridgeControl } from '../../components/bridge-control.js';
import { PageHeader } from '../../components/page-header.js';
import { ProxyControl } from '../../components/proxy-control.js';
import { useResource } from '../../lib/use-resource.js';
import { bridgeInUse } from './bridge-visibility.js';
import { DefaultProfileCard } from './default-profile-card.js';
import { QuotaCards } from './quota-cards.js';
import { RecentAnomalies } from './recent-anomalies.js';
import { SpendCards } from './spend-cards.js';
import { TrafficCard } from './traffic-card.js';
import { UpdateNotice } from './update-notice.js';
import { useScanStatus } from './use-scan-status.js';
import './overview.css';

/** The at-a-glance page: spend, quota, traffic, what runs, the default profile, what looks wrong. */
export function OverviewPage() {
  const bridge = useResource(api.bridgeStatus, []);
  const scan = useScanStatus();
  // Unused (disabled, no credentials) or unknown: the bridge has its own page, not the first screen.
  const showBridge = bridge.data !== undefined && bridgeInUse(bridge.data);
  return (
    <>
      <PageHeader title="Overview" subtitle="What it costs, what is left, what runs, and what needs attention." />
      <UpdateNotice />
      <SpendCards scan={scan} />
      <div class="grid-2">
        <QuotaCards />
        <TrafficCard />
      </div>
      <div class="grid-2">
        <ProxyControl compact />
        <DefaultProfileCard />
      </div>
      <div class={showBridge ? 'grid-2' : undefined}>
        <RecentAnomalies scan={scan} />
        {showBridge ? <BridgeControl status={bridge} showLink /> : null}
      </div>
    </>
  );
}
