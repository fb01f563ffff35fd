import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../../ai/types';
import { PromptQueue, promptMessage } from './prompt-queue.svelte';

const prompt = (text: string): UserMessage => ({ role: 'user', content: text, timestamp: 1 });

describe('promptMessage', () => {
  it('is the text alone without images, and the text before the images with them', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    expect(promptMessage('hello', []).content).toBe('hello');
    expect(promptMessage('look', [image]).content).toEqual([{ type: 'text', text: 'look' }, image]);
    expect(promptMessage('', [image]).content).toEqual([image]);
  });
});

describe('PromptQueue', () => {
  it('takes the queued messages once, and drops one the person removed', () => {
    const queue = new PromptQueue();
    queue.queue(prompt('a'));
    queue.queue(prompt('b'));
    queue.queue(prompt('c'));
    queue.unqueue(1);
    expect(queue.takeQueued().map((m) => m.content)).toEqual(['a', 'c']);
    expect(queue.queued).toEqual([]);
  });

  it('a completed prompt is neither pending nor queued; the untaken ones leave the pending list', () => {
    const queue = new PromptQueue();
    const [first, second, queued] = [prompt('first'), prompt('second'), prompt('queued')];
    queue.sent([first, second]);
    queue.queue(queued);
    queue.completed(first);
    queue.completed(queued);
    expect(queue.pending).toEqual([second]);
    expect(queue.queued).toEqual([]);
    expect(queue.takeUntaken([first, second])).toEqual([second]);
    expect(queue.pending).toEqual([]);
  });

  it('puts the queued texts back before the draft, skipping blank ones', () => {
    const queue = new PromptQueue();
    queue.queue(prompt('one'));
    queue.queue(prompt('two'));
    expect(queue.returnToDraft('')).toBe('one\n\ntwo');
    queue.queue(prompt('three'));
    expect(queue.returnToDraft('typed')).toBe('three\n\ntyped');
    expect(queue.queued).toEqual([]);
  });
});
