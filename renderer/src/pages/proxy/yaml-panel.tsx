import { useEffect, useMemo, useState } from 'preact/hooks';
import { parseDocument } from 'yaml';
import { api, ApiError } from '../../api.js';
import { CodeEditor, lineOf, type EditorProblem } from '../../components/code-editor.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { RestartProxyButton } from '../../components/restart-proxy-button.js';
import { UpdatedProfiles } from '../../components/updated-profiles.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';

async function loadYaml(): Promise<{ text: string; missing: boolean }> {
  try {
    return { text: await api.proxyConfig(), missing: false };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { text: '', missing: true };
    throw err;
  }
}

/** Syntax problems found while typing, with their lines (the server re-checks types on save). */
function syntaxProblems(text: string): EditorProblem[] {
  const doc = parseDocument(text);
  return doc.errors.map((e) => ({ message: e.message.split('\n')[0]!, line: e.linePos?.[0]?.line }));
}

export function YamlPanel() {
  const file = useResource(loadYaml, []);
  const [text, setText] = useState('');
  const [dirty, setDirty] = useState(false);
  const save = useAction((content: string) => api.saveProxyConfig(content));
  useEffect(() => {
    if (file.data) {
      setText(file.data.text);
      setDirty(false);
    }
  }, [file.data]);

  const local = useMemo(() => syntaxProblems(text), [text]);
  const serverProblem: EditorProblem[] =
    save.error instanceof ApiError && save.error.status === 400
      ? [{ message: `${save.error.error}${save.error.detail ? `: ${save.error.detail}` : ''}`, line: lineOf(save.error.detail ?? '') }]
      : [];

  const onSave = async (e: Event) => {
    e.preventDefault();
    if (local.length) return;
    if (await save.run(text)) setDirty(false);
  };

  return (
    <section class="panel" aria-labelledby="yaml-title">
      <header class="panel-head">
        <h2 id="yaml-title">Proxy config (YAML)</h2>
      </header>
      <p class="muted">
        Sections <code>server</code>, <code>auth</code>, <code>providers</code> and <code>upstreams</code>. Changes apply on the next proxy start. The file
        holds the proxy's API key and management secret in plain text: mind your screen when sharing it.
      </p>
      <ErrorNotice error={file.error} />
      {file.data?.missing ? <Notice tone="info">No proxy config file yet; saving creates it.</Notice> : null}
      {!file.data && file.loading ? <Loading what="config" /> : null}
      {file.data ? (
        <form onSubmit={onSave} aria-label="Proxy config editor">
          <CodeEditor
            id="proxy-yaml"
            label="config.yaml"
            value={text}
            onInput={(v) => {
              setText(v);
              setDirty(true);
              save.clear();
            }}
            problems={[...local, ...serverProblem]}
          />
          <div class="actions">
            {dirty ? <span class="muted">Unsaved changes</span> : null}
            <span class="spacer" />
            <button type="button" class="btn" disabled={!dirty} onClick={() => void file.reload()}>
              Discard changes
            </button>
            <button type="submit" class="btn btn-primary" disabled={save.busy || local.length > 0}>
              {save.busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : null}
      {save.error && serverProblem.length === 0 ? <ErrorNotice error={save.error} context="Save" onDismiss={save.clear} /> : null}
      {save.result ? (
        <Notice tone="success" onDismiss={save.clear}>
          Saved to <code>{save.result.path}</code>. Restart the proxy to apply it.
          <RestartProxyButton />
          <UpdatedProfiles names={save.result.updatedProfiles} what="proxy port" />
        </Notice>
      ) : null}
    </section>
  );
}
