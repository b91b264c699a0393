import { api } from '../../api.js';
import { ErrorNotice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';
import { TestResult } from '../providers/test-result.js';

/** "Test connection" on a profile card: one real request with the profile's env (issue 30). */
export function ProfileTest(props: { profile: string }) {
  const test = useAction(() => api.testProfile(props.profile));
  return (
    <>
      <button type="button" class="btn btn-small btn-quiet" onClick={() => void test.run()} disabled={test.busy}>
        {test.busy ? 'Testing…' : 'Test connection'}
        <span class="sr-only"> ({props.profile})</span>
      </button>
      {test.result || test.error ? (
        <div class="profile-test" onClick={(e) => e.stopPropagation()}>
          <ErrorNotice error={test.error} context="Test" onDismiss={test.clear} />
          {test.result ? <TestResult result={test.result} title={test.result.ok ? `${props.profile} works` : `${props.profile} failed`} /> : null}
        </div>
      ) : null}
    </>
  );
}
