import type { ProjectEntry } from '../../api-types.js';
import { ExportButtons } from '../../components/export-buttons.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty } from '../../components/notice.js';
import { formatCost, formatInt } from '../../lib/format.js';
import { PathText } from '../../lib/path-breaks.js';
import type { ExportColumn } from '../../lib/table-export.js';

const columns: Column<ProjectEntry>[] = [
  { key: 'project', label: 'Project', render: (p) => <span class="path">{p.projectPath}</span> },
  { key: 'cost', label: 'Cost', numeric: true, render: (p) => formatCost(p.cost) },
  { key: 'in', label: 'Input', numeric: true, render: (p) => formatInt(p.inputTokens) },
  { key: 'out', label: 'Output', numeric: true, render: (p) => formatInt(p.outputTokens) },
  { key: 'cw', label: 'Cache write', numeric: true, render: (p) => formatInt(p.cacheWriteTokens) },
  { key: 'cr', label: 'Cache read', numeric: true, render: (p) => formatInt(p.cacheReadTokens) },
  { key: 'sessions', label: 'Sessions', numeric: true, render: (p) => formatInt(p.sessions) },
  { key: 'last', label: 'Last activity', render: (p) => <span class="nowrap">{new Date(p.lastActivity).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</span> },
  { key: 'top', label: 'Top model', render: (p) => (p.topModel ? <code class="model">{p.topModel}</code> : '—') },
];

export const projectExport: ExportColumn<ProjectEntry>[] = [
  { header: 'projectPath', value: (p) => p.projectPath },
  { header: 'cost', value: (p) => p.cost },
  { header: 'inputTokens', value: (p) => p.inputTokens },
  { header: 'outputTokens', value: (p) => p.outputTokens },
  { header: 'cacheWriteTokens', value: (p) => p.cacheWriteTokens },
  { header: 'cacheReadTokens', value: (p) => p.cacheReadTokens },
  { header: 'totalTokens', value: (p) => p.totalTokens },
  { header: 'sessions', value: (p) => p.sessions },
  { header: 'lastActivity', value: (p) => p.lastActivity },
  { header: 'topModel', value: (p) => p.topModel },
];

/** Per project, costliest first; a click on a project filters the sessions to it. */
export function ProjectsTable(props: { projects: ProjectEntry[]; onPick: (project: string) => void }) {
  const withPick: Column<ProjectEntry>[] = [
    {
      ...columns[0]!,
      render: (p) => (
        <button type="button" class="link-button path table-path" title="Show this project's sessions" onClick={() => props.onPick(p.projectPath)}>
          <PathText path={p.projectPath} />
        </button>
      ),
    },
    ...columns.slice(1),
  ];
  return (
    <section class="panel" aria-labelledby="projects-title" data-testid="projects">
      <header class="panel-head">
        <h3 id="projects-title">Projects</h3>
        <ExportButtons name="usage-projects" label="projects" columns={projectExport} rows={props.projects} />
      </header>
      {props.projects.length === 0 ? (
        <Empty>No projects in this period.</Empty>
      ) : (
        <DataTable caption="Projects by cost" captionHidden columns={withPick} rows={props.projects} rowKey={(p) => p.projectPath} testId="table-projects" />
      )}
    </section>
  );
}
