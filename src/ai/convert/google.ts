// Conch history and tools -> Gemini `contents` and `functionDeclarations`.
import type { Content, FunctionDeclaration, Part } from '@google/genai';
import type { Message, Model, Tool } from '../types';
import { acceptsImages, imagesOf, isSameModel, replayableContent, toolResultText, userParts } from './history';
import { geminiSchema, plainSchema } from './schema';

/** Ids Conch invents for Gemini calls that came without one; never sent back, as Gemini did not issue them. */
export const CONCH_GEMINI_ID_PREFIX = 'gcall';

export function geminiTools(tools: Tool[]): FunctionDeclaration[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: geminiSchema(plainSchema(tool.parameters)),
  }));
}

/** Gemini pairs results with calls by name and order; ids go back only when Gemini issued them to this model. */
export function geminiContents(messages: Message[], model: Model): Content[] {
  const out: Content[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const parts = userParts(message, model).map((part): Part =>
        part.type === 'text' ? { text: part.text } : { inlineData: { mimeType: part.mimeType, data: part.data } },
      );
      if (parts.length > 0) out.push({ role: 'user', parts });
    } else if (message.role === 'assistant') {
      const same = isSameModel(message, model);
      // Gemini takes no grounding back, so its own searches stay in the transcript only (serverTools: 'drop').
      const blocks = replayableContent(message, model, { keepSignedThinking: true, thinkingAsText: true, serverTools: 'drop' });
      if (!blocks) continue;
      const parts: Part[] = [];
      for (const block of blocks) {
        const previous = parts[parts.length - 1];
        if (block.type === 'text') parts.push({ text: block.text });
        else if (block.type === 'thinking' && block.thinking === '' && previous?.text !== undefined && !previous.thought) {
          previous.thoughtSignature = block.signature; // the signature of the text before it (see providers/google.ts)
        } else if (block.type === 'thinking') parts.push({ text: block.thinking, thought: true, thoughtSignature: block.signature });
        else if (block.type === 'toolCall') {
          parts.push({
            functionCall: { name: block.name, args: block.arguments, ...(geminiIssued(block.id, same) ? { id: block.id } : {}) },
            ...(block.thoughtSignature ? { thoughtSignature: block.thoughtSignature } : {}),
          });
        }
      }
      out.push({ role: 'model', parts });
    } else {
      const callWasGemini = geminiIssued(message.toolCallId, sameModelForResult(messages, message.toolCallId, model));
      const text = toolResultText(message, { markErrors: false });
      const part: Part = {
        functionResponse: {
          name: message.toolName,
          response: message.isError ? { error: text } : { output: text },
          ...(callWasGemini ? { id: message.toolCallId } : {}),
        },
      };
      const images: Part[] = acceptsImages(model)
        ? imagesOf(message.content).map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }))
        : [];
      const previous = out[out.length - 1];
      const groupable = previous?.role === 'user' && previous.parts?.some((p) => p.functionResponse);
      if (groupable && previous.parts) previous.parts.push(part, ...images);
      else out.push({ role: 'user', parts: [part, ...images] });
    }
  }
  return out;
}

function geminiIssued(id: string, sameModel: boolean): boolean {
  return sameModel && !id.startsWith(CONCH_GEMINI_ID_PREFIX);
}

function sameModelForResult(messages: Message[], toolCallId: string, model: Model): boolean {
  const call = messages.find(
    (m) => m.role === 'assistant' && m.content.some((b) => b.type === 'toolCall' && b.id === toolCallId),
  );
  return call?.role === 'assistant' && isSameModel(call, model);
}
