import type { AnthropicUsage } from './anthropic-types.js';
import type { OpenAIUsage } from './openai-types.js';

/**
 * OpenAI `prompt_tokens` counts cached tokens too; Anthropic `input_tokens` does not (cache reads
 * and cache writes are reported beside it). Converting keeps every total equal on both sides.
 */
export function anthropicUsageFromOpenAI(usage: OpenAIUsage | null | undefined): AnthropicUsage {
  if (!usage) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    output_tokens: usage.completion_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

export function openAIUsageFromAnthropic(usage: Partial<AnthropicUsage> | null | undefined): OpenAIUsage {
  const input = usage?.input_tokens ?? 0;
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  const prompt = input + cacheRead + cacheWrite;
  const completion = usage?.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead },
  };
}
