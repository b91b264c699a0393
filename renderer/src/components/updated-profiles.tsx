import { href } from '../lib/router.js';

/**
 * Key rotation follows the profiles (decisions §2): after an API key or proxy port change,
 * say which profiles were rewritten to the new value, each a link to its editor.
 */
export function UpdatedProfiles(props: { names: string[] | undefined; what: string }) {
  // Answers that cannot change the key or port (regenerate-secret) carry no list.
  if (props.names === undefined) return null;
  return (
    <p class="tight" data-testid="updated-profiles">
      {props.names.length === 0 ? (
        'No profile needed updating.'
      ) : (
        <>
          {props.names.length === 1 ? 'Profile' : 'Profiles'} updated to the new {props.what}:{' '}
          {props.names.map((n, i) => (
            <span key={n}>
              {i > 0 ? ', ' : ''}
              <a href={href('profiles', n)}>{n}</a>
            </span>
          ))}
          .
        </>
      )}
    </p>
  );
}
