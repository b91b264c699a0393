/**
 * The usage disk cache's format version. The cache holds requests already reduced by the
 * de-duplication key (per-file winners, kept flags), so it changes with the counting too:
 * 11 ranks OpenCode's and Hermes's copies of a request by root (each request's `offset` holds its copy's
 * precedence, agents/root-order.ts; a cache of 10 holds OpenCode's legacy files marked as sidechain copies);
 * 10 is the segmented layout (packed batches as the scan workers made them, kept flags in a bitmap)
 * and adds OpenCode 2's `session_message` rows to an opencode.db's requests (a cache of 9 holds a
 * store that has both tables with only its `message` rows, and would keep it until the store changes);
 * 9 marks OpenCode's legacy message files as the copy that loses to its database's row (a cache
 * of 8 holds them unmarked); 8 adds each request's agent and extra tokens (every coding agent, decisions §5.1) to 7, which
 * refuses a logged `costUSD` over MAX_LOGGED_COST_USD (a cache of 6 may hold one); 6 keys lines
 * without `requestId` by session + message id + timestamp (5 by session + message id). Answers kept across runs from that data (saved answers, the terminal's memo) name it, so
 * an old cache's answers are dropped with it rather than served with the old counting.
 * A module of its own so that the early start-up path can name it without the cache code.
 */
export const USAGE_CACHE_VERSION = 11;

/** How saved answers and the terminal's memo name the format in their build key. */
export const USAGE_CACHE_TAG = `usage-cache-${USAGE_CACHE_VERSION}`;
