import { useEffect, useState } from 'preact/hooks';

/** The system colour scheme, live: charts redraw with the theme's colours when it changes. */
export function useColorScheme(): 'light' | 'dark' {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const update = () => setDark(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return dark ? 'dark' : 'light';
}
