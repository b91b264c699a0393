import { useState } from 'preact/hooks';

/**
 * Gemini's sign-in is for Code Assist Standard/Enterprise only (Google retired consumer sign-in on
 * 2026-06-18): the Google Cloud project of the licence, then Sign in.
 */
export function GeminiProjectForm(props: { busy: boolean; onSubmit: (projectId: string) => void }) {
  const [project, setProject] = useState('');
  return (
    <form
      class="acc-project"
      onSubmit={(e) => {
        e.preventDefault();
        if (project.trim() !== '') props.onSubmit(project.trim());
      }}
    >
      <div class="field">
        <label for="acc-gemini-project">Code Assist Standard/Enterprise: Google Cloud project id</label>
        <input id="acc-gemini-project" type="text" spellcheck={false} autocomplete="off" placeholder="my-team-project" value={project} onInput={(e) => setProject((e.target as HTMLInputElement).value)} />
      </div>
      <button type="submit" class="btn btn-small btn-primary" disabled={props.busy || project.trim() === ''}>
        Sign in
      </button>
    </form>
  );
}
