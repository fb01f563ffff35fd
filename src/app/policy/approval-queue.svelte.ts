// Questions to the person about tool calls the policy will not decide alone: shown until answered, in any order; a
// stopped run answers its own questions with "deny" so the loop can finish.
import type { ApprovalAnswer, ApprovalQuestion } from './policy';

export type PendingApproval = { question: ApprovalQuestion; answer(answer: ApprovalAnswer): void };

/** The open questions of one session, in the order they were asked. */
export class ApprovalQueue {
  pending = $state.raw<PendingApproval[]>([]);

  /** Asks the person; resolves with their answer, or a denial once `signal` aborts. `onSettled` runs just before. */
  ask(question: ApprovalQuestion, signal: AbortSignal | undefined, onSettled: () => void): Promise<ApprovalAnswer> {
    return new Promise<ApprovalAnswer>((resolve) => {
      const settle = (answer: ApprovalAnswer) => {
        signal?.removeEventListener('abort', onAbort);
        this.pending = this.pending.filter((a) => a !== pending);
        onSettled();
        resolve(answer);
      };
      const onAbort = () => settle({ decision: 'deny', reason: 'The run was stopped before the person answered.' });
      const pending: PendingApproval = { question, answer: settle };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = [...this.pending, pending];
    });
  }

  answer(questionId: string, answer: ApprovalAnswer): void {
    this.pending.find((a) => a.question.id === questionId)?.answer(answer);
  }
}
