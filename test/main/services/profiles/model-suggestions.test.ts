import { describe, expect, it } from 'vitest';
import { mergeSuggestions, modelSuggestions } from '../../../../main/services/profiles/model-suggestions.js';

describe('model suggestions', () => {
  it('merges the three parts into one entry per id, sources in a fixed order, sorted by id', () => {
    expect(mergeSuggestions({ proxy: ['b', 'a'], usage: ['a', ' c '], presets: ['a', ''] })).toEqual([
      { id: 'a', sources: ['proxy', 'usage', 'presets'] },
      { id: 'b', sources: ['proxy'] },
      { id: 'c', sources: ['usage'] },
    ]);
  });

  it('answers an empty part for a source that fails or is too slow', async () => {
    const result = await modelSuggestions(
      {
        proxy: () => Promise.reject(new Error('stopped')),
        usage: () => new Promise(() => undefined),
        presets: async () => ['glm'],
      },
      50,
    );
    expect(result).toEqual({ models: [{ id: 'glm', sources: ['presets'] }] });
  });
});
