// Long sessions: token accounting, the compaction trigger, cut points, the summary call and the model's view
// (DESIGN.md "Long sessions (compaction)"). The app wires ContextGuard into the loop and stores the entries.
export { CHARS_PER_TOKEN, IMAGE_TOKENS, estimateMessageTokens, estimateRequestTokens, estimateTextTokens, estimateToolTokens } from './estimate';
export { ContextTokenCounter, hasUsableUsage, usageTokens, type TokenCountInput } from './context-tokens';
export {
  DEFAULT_COMPACTION_SETTINGS,
  DEFAULT_KEEP_RECENT_TOKENS,
  DEFAULT_RESERVE_TOKENS,
  clampMaxOutput,
  compactionThreshold,
  keepRecentTokensFor,
  reserveTokensFor,
  shouldCompact,
  type CompactionSettings,
} from './settings';
export { findCutPoint, type CutOptions, type CutPoint } from './cut-point';
export { prunedNotice, pruneToolResult, serializeForSummary } from './prune';
export { serializeTranscript, TOOL_RESULT_CHARS } from './serialize';
export { collectFileLists, type FileEffect, type FileEffectOf, type FileLists } from './file-lists';
export { SUMMARY_SYSTEM_PROMPT } from './summary-prompts';
export { summarize, type SummaryCaller, type SummaryResult } from './summarize';
export { compactContext, summaryOutputTokens, type CompactionOutcome, type CompactionRequest, type TodoListOf } from './compact';
export { buildModelContext, isResendable, latestCompactionAt, summaryMessage, SUMMARY_PREFIX, type ModelContext } from './model-context';
export { ContextGuard, type CompactionReason, type ContextGuardOptions } from './context-guard';
export type { CompactionEntry } from '../../ai/types';
export { isContextOverflowMessage } from './overflow';
