import { api } from '../../api.js';
import type { AuthFile } from '../../api-types.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { formatBytes, formatTime } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

export function AuthFilesPanel() {
  const files = useResource(api.authFiles, []);
  const columns: Column<AuthFile>[] = [
    { key: 'name', label: 'File', render: (f) => <span class="path">{f.name}</span> },
    { key: 'size', label: 'Size', numeric: true, render: (f) => formatBytes(f.size) },
    { key: 'mtime', label: 'Modified', render: (f) => formatTime(f.mtime) },
    {
      key: 'dl',
      label: 'Download',
      render: (f) => (
        <a class="btn btn-small" href={api.authFileUrl(f.name)} download={f.name}>
          Download<span class="sr-only"> {f.name}</span>
        </a>
      ),
    },
  ];
  return (
    <section class="panel" aria-labelledby="auth-title">
      <header class="panel-head">
        <h2 id="auth-title">Auth files</h2>
      </header>
      {files.data ? (
        <p class="muted">
          Directory: <code>{files.data.directory}</code>. These files hold OAuth tokens: keep downloads private.
        </p>
      ) : null}
      <ErrorNotice error={files.error} />
      {!files.data && files.loading ? <Loading what="auth files" /> : null}
      {files.data?.files.length === 0 ? <Empty>No auth files. Sign in to a provider through the proxy to create one.</Empty> : null}
      {files.data && files.data.files.length > 0 ? (
        <DataTable caption="Auth files" captionHidden columns={columns} rows={files.data.files} rowKey={(f) => f.name} />
      ) : null}
    </section>
  );
}
