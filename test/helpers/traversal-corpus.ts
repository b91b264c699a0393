/**
 * Names and paths a client might send to escape a directory: plain, encoded, double-encoded,
 * backslashed, absolute, NUL-laden and over-long. `target` is a file outside every root that
 * must never be read or written.
 */
export function traversalCorpus(target: string): string[] {
  const rel = '../../../../../../../..' + target;
  return [
    '..',
    '../',
    '../x.json',
    '../../etc/passwd',
    rel,
    target,
    `/${target.replace(/^\/+/, '')}`,
    '..\\..\\x.json',
    '..%2f..%2fx.json',
    '%2e%2e%2f%2e%2e%2fx.json',
    '%2e%2e/x.json',
    '%252e%252e%252fx.json',
    '..%5c..%5cx.json',
    '....//....//x.json',
    '.../x.json',
    'a/../../x.json',
    'x.json\0.md',
    'x\0',
    'C:\\Windows\\win.ini',
    '\\\\server\\share\\x.json',
    'error-../../x.log',
    'error-%2e%2e%2fx.log',
    'error-x.log/../../x',
    'a'.repeat(300),
    `${'a/'.repeat(200)}x`,
    '\u202e..',
    '\uff0e\uff0e/x.json',
  ];
}
