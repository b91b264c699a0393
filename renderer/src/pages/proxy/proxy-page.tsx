import { PageHeader } from '../../components/page-header.js';
import { ProxyControl } from '../../components/proxy-control.js';
import { href } from '../../lib/router.js';
import { AuthFilesPanel } from './auth-files-panel.js';
import { CliproxyCard } from './cliproxy-card.js';
import { ErrorLogsPanel } from './error-logs-panel.js';
import { ModelsPanel } from './models-panel.js';
import { QuotaPanel } from './quota-panel.js';
import { TokensPanel } from './tokens-panel.js';
import { UpdatePanel } from './update-panel.js';
import { UpstreamsPanel } from './upstreams-panel.js';
import { YamlPanel } from './yaml-panel.js';

const SECTIONS = [
  { id: 'status', title: 'Status' },
  { id: 'upstreams', title: 'Upstreams' },
  { id: 'models', title: 'Models' },
  { id: 'logs', title: 'Error logs' },
  { id: 'config', title: 'Config YAML' },
  { id: 'auth', title: 'Auth files' },
  { id: 'quota', title: 'Quota' },
  { id: 'tokens', title: 'Tokens' },
] as const;

/** `item` is the part after the section: an error log's name in `#/proxy/logs/<name>`. */
export function ProxyPage(props: { section?: string; item?: string }) {
  const section = SECTIONS.find((s) => s.id === props.section) ?? SECTIONS[0];
  return (
    <>
      <PageHeader title="Proxy" subtitle="The local proxy your coding clients talk to." />
      <nav class="subnav" aria-label="Proxy sections">
        {SECTIONS.map((s) => (
          <a key={s.id} href={href('proxy', s.id)} aria-current={s.id === section.id ? 'page' : undefined}>
            {s.title}
          </a>
        ))}
      </nav>
      {section.id === 'status' ? (
        <div class="grid-2">
          <ProxyControl />
          <UpdatePanel />
          <CliproxyCard />
        </div>
      ) : null}
      {section.id === 'upstreams' ? <UpstreamsPanel /> : null}
      {section.id === 'models' ? <ModelsPanel /> : null}
      {section.id === 'logs' ? <ErrorLogsPanel selected={props.item} /> : null}
      {section.id === 'config' ? <YamlPanel /> : null}
      {section.id === 'auth' ? <AuthFilesPanel /> : null}
      {section.id === 'quota' ? <QuotaPanel /> : null}
      {section.id === 'tokens' ? <TokensPanel /> : null}
    </>
  );
}
