import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../ai/types';
import { assistant, user } from '../../store/testing/messages';
import { canContinueFrom, failedReply, overflowedReply } from './reply-state';

const ended = (stopReason: AssistantMessage['stopReason'], errorMessage?: string): AssistantMessage => ({ ...assistant('partial'), stopReason, errorMessage });

describe('what the end of a transcript allows', () => {
  it('a provider error offers Retry (not while a run goes on), and Continue only after a Stop or an interrupted reply', () => {
    const failed = [user('go'), ended('error', 'HTTP 500')];
    expect(failedReply(failed, false)).toBe(failed[1]);
    expect(failedReply(failed, true)).toBeNull();
    expect(canContinueFrom(failed, false, true)).toBe(false); // Retry, not Continue

    const interrupted = [user('go'), ended('aborted')];
    expect(canContinueFrom(interrupted, false, false)).toBe(true);
    expect(canContinueFrom(interrupted, true, false)).toBe(false);
    const finished = [user('go'), ended('stop')];
    expect(canContinueFrom(finished, false, false)).toBe(false);
    expect(canContinueFrom(finished, false, true)).toBe(true); // the person pressed Stop
  });

  it('a context overflow the compaction could not cure offers Compact harder; another error does not', () => {
    const refused = (errorMessage: string): AssistantMessage => ({ ...ended('error', errorMessage), content: [] }); // nothing streamed
    expect(overflowedReply([user('go'), refused('prompt is too long: 210000 tokens > 200000 maximum')], false)).toBe(true);
    expect(overflowedReply([user('go'), refused('HTTP 500 internal error')], false)).toBe(false);
    expect(overflowedReply([user('go'), refused('prompt is too long: 210000 tokens > 200000 maximum')], true)).toBe(false);
  });
});
