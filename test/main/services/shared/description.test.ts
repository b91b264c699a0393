import { describe, expect, it } from 'vitest';
import { describeMarkdown, shorten } from '../../../../main/services/shared/description.js';

describe('describeMarkdown (decisions §3)', () => {
  it.each([
    ['front matter description wins', '---\ndescription: Commit staged work\nname: x\n---\n# Title\nBody line', 'Commit staged work'],
    ['quoted and folded front matter is one line', '---\ndescription: >\n  Two\n  lines\n---\nbody', 'Two lines'],
    ['CRLF front matter', '---\r\ndescription: Windows file\r\n---\r\nbody', 'Windows file'],
    ['BOM before the front matter', '\uFEFF---\ndescription: With BOM\n---\n', 'With BOM'],
    ['first body line when front matter has none', '---\nname: x\n---\n\n# Heading\n\n  First real line  \nsecond', 'First real line'],
    ['blank front matter description falls back', '---\ndescription: "  "\n---\nBody', 'Body'],
    ['non-string description falls back', '---\ndescription: 42\n---\nBody', 'Body'],
    ['broken YAML front matter falls back to the body', '---\ndescription: [unclosed\n---\nBody after', 'Body after'],
    ['empty front matter', '---\n---\nJust body', 'Just body'],
    ['no front matter', '# Title\n## Sub\nText', 'Text'],
    ['thematic breaks are not descriptions', '# T\n***\n- - -\nReal', 'Real'],
    ['only headings', '# One\n## Two\n', 'No description'],
    ['empty file', '', 'No description'],
  ])('%s', (_name, input, expected) => {
    expect(describeMarkdown(input)).toBe(expected);
  });

  it('keeps 140 characters, cuts 141 to 137 plus "..."', () => {
    expect(describeMarkdown('a'.repeat(140))).toBe('a'.repeat(140));
    expect(describeMarkdown('b'.repeat(141))).toBe('b'.repeat(137) + '...');
    expect(describeMarkdown(`---\ndescription: ${'c'.repeat(200)}\n---\n`)).toBe('c'.repeat(137) + '...');
  });

  it('counts code points, so an emoji is never cut in half', () => {
    const text = '😀'.repeat(150);
    const cut = shorten(text);
    expect(Array.from(cut)).toHaveLength(140);
    expect(cut.endsWith('😀...')).toBe(true);
    expect(shorten('😀'.repeat(140))).toBe('😀'.repeat(140));
  });
});
