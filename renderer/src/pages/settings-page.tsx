import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { AppConfigResponse } from '../api-types.js';
import { CodeEditor, type EditorProblem } from '../components/code-editor.js';
import { ConflictDialog } from '../components/conflict-dialog.js';
import { ErrorNotice, Loading, Notice } from '../components/notice.js';
import { PageHeader } from '../components/page-header.js';
import { formatTime } from '../lib/format.js';
import { useLiveReload } from '../lib/live.js';
import { href } from '../lib/router.js';
import { useResource } from '../lib/use-resource.js';
import { CONFIG_GROUPS, getPath, setPath } from './settings-fields.js';
import { ConfigInput } from './settings-input.js';

type Config = Record<string, unknown>;

export function SettingsPage() {
  const file = useResource(api.config, []);
  const [draft, setDraft] = useState<Config | null>(null);
  const [mtime, setMtime] = useState<number | null>(null);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState('');
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);
  const [conflict, setConflict] = useState<{ theirs: AppConfigResponse; currentMtime: number } | null>(null);

  // Another window, the tray or the CLI changed config.yaml: show it, unless the user is editing.
  useLiveReload(['config-changed'], () => {
    if (!dirty) void file.reload();
  }, 0);

  const adopt = (r: AppConfigResponse) => {
    setDraft(r.config);
    setMtime(r.mtime);
    setJsonText(JSON.stringify(r.config, null, 2));
    setDirty(false);
  };
  useEffect(() => {
    if (file.data) adopt(file.data);
  }, [file.data]);

  const jsonProblem = useMemo<EditorProblem[]>(() => {
    if (mode !== 'json') return [];
    try {
      const v: unknown = JSON.parse(jsonText);
      return v && typeof v === 'object' && !Array.isArray(v) ? [] : [{ message: 'The config must be a JSON object' }];
    } catch (err) {
      return [{ message: err instanceof Error ? err.message : String(err) }];
    }
  }, [jsonText, mode]);

  // "Invalid config" names the offending path first: show it on that field.
  const invalid = error instanceof ApiError && error.status === 400 ? error : null;
  const badPath = invalid?.detail?.split(':')[0]?.trim();

  const current = (): Config | null => (mode === 'json' ? (jsonProblem.length ? null : (JSON.parse(jsonText) as Config)) : draft);

  const switchMode = (next: 'form' | 'json') => {
    if (next === mode) return;
    if (next === 'json') setJsonText(JSON.stringify(draft, null, 2));
    else if (!jsonProblem.length) setDraft(JSON.parse(jsonText) as Config);
    else return;
    setMode(next);
  };

  const write = async (expected: number | null) => {
    const config = current();
    if (!config) return;
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const r = await api.saveConfig(config, expected);
      adopt({ config: r.config, mtime: r.mtime, path: file.data?.path ?? '' });
      setSaved(true);
      setConflict(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const theirs = await api.config().catch(() => null);
        if (theirs) setConflict({ theirs, currentMtime: Number(err.body.currentMtime ?? theirs.mtime) });
        else setError(err);
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const edit = (path: string, value: unknown) => {
    if (!draft) return;
    setDraft(setPath(draft, path, value));
    setDirty(true);
    setSaved(false);
  };

  return (
    <>
      <PageHeader title="Settings" subtitle={file.data ? <span class="path">{file.data.path}</span> : 'Application config (config.yaml).'} />
      <ErrorNotice error={file.error} />
      {!draft && file.loading ? <Loading what="config" /> : null}
      {draft ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void write(mtime);
          }}
          aria-label="Application config"
          noValidate
        >
          <div class="toolbar">
            <div class="segmented" role="group" aria-label="Editor">
              <button type="button" aria-pressed={mode === 'form'} onClick={() => switchMode('form')}>
                Form
              </button>
              <button type="button" aria-pressed={mode === 'json'} onClick={() => switchMode('json')}>
                JSON
              </button>
            </div>
            <span class="muted">
              {mtime ? `Saved ${formatTime(mtime)}` : 'Not saved yet'} · Bridge options are on the <a href={href('bridge')}>Bridge page</a>; tokens on{' '}
              <a href={href('proxy', 'tokens')}>Proxy › Tokens</a>.
            </span>
          </div>
          {mode === 'form' ? (
            CONFIG_GROUPS.map((g) => (
              <fieldset class="panel" key={g.title}>
                <legend>{g.title}</legend>
                {g.fields.some((f) => f.kind === 'bool') ? (
                  <div class="checks">
                    {g.fields
                      .filter((f) => f.kind === 'bool')
                      .map((f) => (
                        <ConfigInput key={f.path} field={f} value={getPath(draft, f.path)} onChange={(v) => edit(f.path, v)} error={badPath === f.path ? invalid?.detail : null} />
                      ))}
                  </div>
                ) : null}
                {g.fields.some((f) => f.kind !== 'bool') ? (
                <div class="form-grid form-grid-wide">
                  {g.fields
                    .filter((f) => f.kind !== 'bool')
                    .map((f) => (
                      <ConfigInput key={f.path} field={f} value={getPath(draft, f.path)} onChange={(v) => edit(f.path, v)} error={badPath === f.path ? invalid?.detail : null} />
                    ))}
                </div>
                ) : null}
              </fieldset>
            ))
          ) : (
            <CodeEditor
              id="config-json"
              label="config.yaml as JSON (comments and unknown keys in the file are kept on save)"
              value={jsonText}
              onInput={(v) => {
                setJsonText(v);
                setDirty(true);
                setSaved(false);
              }}
              problems={[...jsonProblem, ...(invalid ? [{ message: `${invalid.error}: ${invalid.detail ?? ''}` }] : [])]}
              rows={24}
            />
          )}
          {invalid && mode === 'form' && !CONFIG_GROUPS.some((g) => g.fields.some((f) => f.path === badPath)) ? <ErrorNotice error={invalid} /> : null}
          <div class="actions">
            {dirty ? <span class="muted">Unsaved changes</span> : null}
            <span class="spacer" />
            <button type="button" class="btn" disabled={!dirty || busy} onClick={() => file.data && adopt(file.data)}>
              Discard changes
            </button>
            <button type="submit" class="btn btn-primary" disabled={busy || jsonProblem.length > 0}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : null}
      {error && !invalid ? <ErrorNotice error={error} context="Save" onDismiss={() => setError(undefined)} /> : null}
      {saved ? <Notice tone="success" onDismiss={() => setSaved(false)}>Settings saved.</Notice> : null}
      <ConflictDialog
        open={conflict !== null}
        what="config.yaml"
        mine={JSON.stringify(current() ?? {}, null, 2)}
        theirs={conflict ? JSON.stringify(conflict.theirs.config, null, 2) : ''}
        busy={busy}
        onCancel={() => setConflict(null)}
        onReload={() => {
          if (conflict) adopt(conflict.theirs);
          setConflict(null);
        }}
        onOverwrite={() => conflict && void write(conflict.currentMtime)}
      />
    </>
  );
}
