import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { AgentSettings, WriteResult } from '../api-types.js';
import { Diagnostics, noAgentInstalled } from './agent-tool-diagnostics.js';
import { CodeEditor, lineOf, type EditorProblem } from '../components/code-editor.js';
import { ConflictDialog } from '../components/conflict-dialog.js';
import { ErrorNotice, Loading, Notice } from '../components/notice.js';
import { PageHeader } from '../components/page-header.js';
import { useResource } from '../lib/use-resource.js';

export function AgentToolPage() {
  const settings = useResource(api.agentSettings, []);
  return (
    <>
      <PageHeader title="Agent tool" subtitle="The coding agent's binary and its settings file." />
      <ErrorNotice error={settings.error} />
      {!settings.data && settings.loading ? <Loading /> : null}
      {settings.data ? (
        <>
          <Diagnostics diag={settings.data.diagnostics} />
          {/* With no agent at all there is no settings file to edit, unless one is already there. */}
          {noAgentInstalled(settings.data.diagnostics) && !settings.data.exists ? null : <SettingsEditor file={settings.data} onSaved={settings.reload} />}
        </>
      ) : null}
    </>
  );
}

function jsonProblems(text: string): EditorProblem[] {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ message: 'The settings must be a JSON object ({ … })' }];
    return [];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [{ message, line: lineOf(message) }];
  }
}

function SettingsEditor(props: { file: AgentSettings; onSaved: () => void }) {
  const [text, setText] = useState(props.file.content);
  const [mtime, setMtime] = useState(props.file.mtime);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState<WriteResult | null>(null);
  const [conflict, setConflict] = useState<{ theirs: AgentSettings; currentMtime: number } | null>(null);
  useEffect(() => {
    if (!dirty) {
      setText(props.file.content);
      setMtime(props.file.mtime);
    }
  }, [props.file]);

  const local = useMemo(() => jsonProblems(text), [text]);
  const server: EditorProblem[] =
    error instanceof ApiError && error.status === 400 ? [{ message: error.detail ? `${error.error}: ${error.detail}` : error.error, line: lineOf(error.error) }] : [];

  const write = async (expected: number | null | undefined) => {
    setBusy(true);
    setError(undefined);
    try {
      const r = await api.saveAgentSettings(text, expected);
      setSaved(r);
      setMtime(r.mtime);
      setDirty(false);
      setConflict(null);
      props.onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const theirs = await api.agentSettings().catch(() => null);
        if (theirs) setConflict({ theirs, currentMtime: Number(err.body.currentMtime ?? theirs.mtime) });
        else setError(err);
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="agent-settings-title">
      <h2 id="agent-settings-title">Settings file</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!local.length) void write(mtime);
        }}
        aria-label="Agent settings editor"
      >
        <CodeEditor
          id="agent-settings"
          label={props.file.path}
          value={text}
          onInput={(v) => {
            setText(v);
            setDirty(true);
            setSaved(null);
            setError(undefined);
          }}
          problems={[...local, ...server]}
        />
        <div class="actions">
          {dirty ? <span class="muted">Unsaved changes</span> : null}
          <span class="spacer" />
          <button type="submit" class="btn btn-primary" disabled={busy || local.length > 0}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      {error && !server.length ? <ErrorNotice error={error} context="Save" onDismiss={() => setError(undefined)} /> : null}
      {saved ? (
        <Notice tone="success" onDismiss={() => setSaved(null)}>
          Saved.{' '}
          {saved.backupPath ? (
            <>
              Previous version backed up to <code>{saved.backupPath}</code>.
            </>
          ) : null}
        </Notice>
      ) : null}
      <ConflictDialog
        open={conflict !== null}
        what="the agent settings file"
        mine={text}
        theirs={conflict?.theirs.content ?? ''}
        busy={busy}
        onCancel={() => setConflict(null)}
        onReload={() => {
          if (conflict) {
            setText(conflict.theirs.content);
            setMtime(conflict.theirs.mtime);
            setDirty(false);
          }
          setConflict(null);
        }}
        onOverwrite={() => conflict && void write(conflict.currentMtime)}
      />
    </section>
  );
}
