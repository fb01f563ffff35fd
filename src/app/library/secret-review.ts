// Where a secret the export's review found sits, in the words of the screen: which message of the conversation
// (and its seq, so the transcript can show it), or which file and line.
import type { Message } from '../../ai/types';
import type { SecretFinding } from '../../store';

/** `seq` is set when the finding is in a message the transcript shows. */
export type FindingPlace = { label: string; seq?: number };

/** Where `finding` is, given the messages the export was scanned from. */
export function findingPlace(finding: SecretFinding, messages: readonly Message[]): FindingPlace {
  if (finding.where !== 'transcript') {
    const file = `${finding.path}, line ${finding.line}`;
    return { label: finding.where === 'baseline' ? `${file} (as imported)` : file };
  }
  const message = finding.seq === undefined ? undefined : messages[finding.seq];
  if (!message) return { label: 'In a compaction summary' };
  const seq = finding.seq;
  switch (message.role) {
    case 'user':
      return { label: 'In a message you sent', seq };
    case 'toolResult':
      return { label: `In the output of ${message.toolName}`, seq };
    case 'assistant': {
      const index = Number(/^content\/(\d+)/.exec(finding.field ?? '')?.[1]);
      const block = message.content[index];
      if (block?.type === 'toolCall') return { label: `In the agent’s ${block.name} call`, seq };
      if (block?.type === 'thinking') return { label: 'In the agent’s thinking', seq };
      return { label: 'In a reply', seq };
    }
    default: {
      const unhandled: never = message;
      return unhandled;
    }
  }
}
