import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/infra/logger.js';

describe('createLogger', () => {
  it('escapes control characters a message quotes (an upstream answer, a file name), keeping the line', () => {
    const lines: string[] = [];
    const logger = createLogger('info', (l) => lines.push(l));
    logger.warn('upstream said \u001b]52;c;Y3VybA==\u0007 and \u009b2J');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\S+ warn upstream said \\x1b\]52;c;Y3VybA==\\x07 and \\x9b2J\n$/);
  });

  it('keeps the levels: below the chosen one, nothing', () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (l) => lines.push(l));
    logger.info('quiet');
    logger.error('loud');
    expect(lines.map((l) => l.split(' ').slice(1).join(' '))).toEqual(['error loud\n']);
  });
});
