import { describe, expect, it } from 'vitest';
import { Pricing, normaliseModelName } from '../../../../main/services/usage/pricing.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const pricing = new Pricing();
const cost = (model: string, tokens: Partial<Record<'inputTokens' | 'outputTokens' | 'cacheWrite5mTokens' | 'cacheWrite1hTokens' | 'cacheReadTokens', number>>, fast = false) =>
  pricing.costOf(usageRecord({ model, fast, ...tokens }));

describe('Pricing', () => {
  it.each([
    // model, tokens, USD (hand-computed from the per-million table)
    ['claude-sonnet-4-5-20250929', { inputTokens: 1_000_000 }, 3 * 0.2 + 6 * 0.8],
    ['claude-sonnet-4-5-20250929', { inputTokens: 200_000 }, 0.6],
    ['claude-sonnet-4-5-20250929', { inputTokens: 200_001 }, 0.6 + 6e-6],
    ['claude-sonnet-4-20250514', { outputTokens: 300_000 }, 15 * 0.2 + 22.5 * 0.1],
    // 5-minute and 1-hour writes are tiered each on their own: 150k + 150k stays below 200k
    ['claude-sonnet-4-5', { cacheWrite5mTokens: 150_000, cacheWrite1hTokens: 150_000 }, 3.75 * 0.15 + 6 * 0.15],
    ['claude-sonnet-4-5', { cacheWrite1hTokens: 300_000 }, 6 * 0.2 + 12 * 0.1],
    ['claude-sonnet-4-5', { cacheReadTokens: 1_000_000 }, 0.3 * 0.2 + 0.6 * 0.8],
    ['claude-haiku-4-5-20251001', { cacheWrite1hTokens: 1_000_000 }, 2],
    ['claude-haiku-4-5-20251001', { cacheWrite5mTokens: 1_000_000 }, 1.25],
    ['claude-opus-4-1-20250805', { inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 1000 }, 0.015 + 0.075 + 0.0015],
    ['claude-opus-4-5-20251101', { inputTokens: 1_000_000 }, 5],
    ['claude-3-5-haiku-20241022', { outputTokens: 1_000_000 }, 4],
    // Opus 4.6 past 200k has no tier (as ccusage 20.0.24)
    ['claude-opus-4-6', { inputTokens: 1_000_000 }, 5],
    // Gemini 2.5 Pro: the whole request at the long rate once input + cache read pass 200k
    ['gemini-2.5-pro', { inputTokens: 150_000, cacheReadTokens: 60_000, outputTokens: 100_000 }, 2.5 * 0.15 + 0.25 * 0.06 + 15 * 0.1],
    ['gemini-2.5-pro', { inputTokens: 150_000, cacheReadTokens: 50_000, outputTokens: 100_000 }, 1.25 * 0.15 + 0.125 * 0.05 + 10 * 0.1],
    // cache writes do not count toward the Gemini threshold (decisions §5)
    ['gemini-2.5-pro', { inputTokens: 150_000, cacheWrite5mTokens: 100_000 }, 1.25 * 0.15 + 1.5625 * 0.1],
    ['gpt-5', { inputTokens: 1_000_000, cacheReadTokens: 1_000_000 }, 1.25 + 0.125],
    ['glm-4.6', { inputTokens: 1_000_000, outputTokens: 1_000_000 }, 0.6 + 2.2],
    ['unknown-model-x', { inputTokens: 1_000_000 }, 0],
    ['<synthetic>', { inputTokens: 1_000_000 }, 0],
  ])('%s %j costs %d', (model, tokens, usd) => {
    expect(cost(model, tokens)).toBeCloseTo(usd, 12);
  });

  it('bills Opus 4.6 fast mode at six times the list price, other models unchanged', () => {
    expect(cost('claude-opus-4-6', { inputTokens: 100_000 }, true)).toBeCloseTo(3, 12);
    expect(cost('claude-opus-4-5', { inputTokens: 100_000 }, true)).toBeCloseTo(0.5, 12);
  });

  it.each([
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['openrouter/anthropic/claude-opus-4.1', 'claude-opus-4-1'],
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-5-20250929[1m]', 'claude-sonnet-4-5'],
    ['claude-4-sonnet', 'claude-sonnet-4'],
    ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet'],
    ['gpt-4.1-2025-04-14', 'gpt-4.1'],
    ['openai/gpt-5-codex', 'gpt-5-codex'],
    ['gpt-5-codex-high', 'gpt-5-codex'],
    ['gemini-3-pro-preview', 'gemini-3-pro'],
    ['google/gemini-2.5-pro-preview-06-05', 'gemini-2.5-pro'],
    ['qwen3-coder:30b', 'qwen3-coder'],
    ['kimi-k2-0905-preview', 'kimi-k2-0905-preview'],
    ['mistral-large-latest', 'mistral-large'],
    ['grok-code-fast-1', 'grok-code-fast-1'],
    ['deepseek-chat', 'deepseek-chat'],
    ['o4-mini', 'o4-mini'],
  ])('prices %s as %s', (model, entry) => {
    expect(pricing.priceOf(model)?.name).toBe(entry);
  });

  it.each(['claude-opus-4-9', 'gpt-5.3', 'my-local-model', 'claude'])('does not guess a price for %s', (model) => {
    expect(pricing.priceOf(model)).toBeNull();
    expect(pricing.isPriced(model)).toBe(false);
  });

  it('prices a dated alias by the request time: kimi-for-coding is K2.5 until 2026-04-20T15:28:10.072Z, K2.6 from then (ccusage 20.0.24)', () => {
    const cutoff = Date.parse('2026-04-20T15:28:10.072Z');
    expect(pricing.priceOf('kimi-for-coding', cutoff - 1)?.name).toBe('kimi-k2.5');
    expect(pricing.priceOf('kimi-for-coding', cutoff)?.name).toBe('kimi-k2.6');
    expect(pricing.priceOf('moonshot/kimi-for-coding')?.name).toBe('kimi-k2.6');
    expect(pricing.isPriced('kimi-for-coding')).toBe(true);
    // ccusage's own row: 100 in, 50 out, 20 cache write, 10 cache read.
    const tokens = { inputTokens: 100, outputTokens: 50, cacheWrite5mTokens: 20, cacheWrite1hTokens: 0, cacheReadTokens: 10, fast: false, model: 'kimi-for-coding' };
    expect(pricing.costOf({ ...tokens, timestamp: cutoff - 1 })).toBeCloseTo(0.000226, 12);
    expect(pricing.costOf({ ...tokens, timestamp: cutoff })).toBeCloseTo(0.00032035, 12);
  });

  it('prices each request as a fresh table would while the model switches back and forth (the per-name memo)', () => {
    const cutoff = Date.parse('2026-04-20T15:28:10.072Z');
    const models = ['kimi-for-coding', 'gpt-5-codex-high', 'moonshot/kimi-for-coding', 'claude-sonnet-4-5-20250929', 'no-such-model', 'gemini-2.5-pro', 'GPT-5.1-Codex', 'kimi-for-coding'];
    const shared = new Pricing();
    for (let i = 0; i < 64; i++) {
      const r = {
        ...usageRecord({ model: models[i % models.length]!, fast: i % 3 === 0 }),
        timestamp: i % 2 === 0 ? cutoff - 1 : cutoff + i,
        inputTokens: 150_000 + i * 1_000,
        outputTokens: 1_000 * i,
        cacheReadTokens: 60_000,
      };
      expect(shared.costOf(r)).toBe(new Pricing().costOf(r));
      expect(shared.priceOf(r.model, r.timestamp)?.name).toBe(new Pricing().priceOf(r.model, r.timestamp)?.name);
    }
    expect(shared.priceOf('kimi-for-coding', cutoff - 1)?.name).toBe('kimi-k2.5');
    expect(shared.priceOf('kimi-for-coding', cutoff)?.name).toBe('kimi-k2.6');
  });

  it('normalises only for the lookup', () => {
    expect(normaliseModelName('OpenRouter/Anthropic/Claude-Sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
  });
});
