// OpenAI Responses API streaming (typed SSE events with sequence numbers, ending in response.completed/incomplete).
import { argumentsText, chunks, stopReasonOf, textDeltas, usageOf, type MockTurn } from './script';
import { openAIUrlCitation, openAIWebSearchItem, webToolId } from './wire-web-tools';

export function openAIResponsesFrames(turn: MockTurn, model: string, serial: number): string[] {
  let sequence = 0;
  const frames: string[] = [];
  const emit = (type: string, body: Record<string, unknown>) =>
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...body })}\n\n`);
  const responseId = `resp_mock_${serial}`;
  const shell = (status: string, output: unknown[]) => ({
    id: responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output,
    error: null, incomplete_details: null, usage: null,
  });
  emit('response.created', { response: shell('in_progress', []) });
  emit('response.in_progress', { response: shell('in_progress', []) });
  const output: Record<string, unknown>[] = [];

  turn.content.forEach((block, output_index) => {
    if (block.type === 'thinking') {
      const item_id = `rs_mock_${serial}_${output_index}`;
      emit('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } });
      emit('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const delta of chunks(block.thinking)) {
        emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
      }
      emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: block.thinking });
      emit('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: block.thinking } });
      const item = { id: item_id, type: 'reasoning', summary: [{ type: 'summary_text', text: block.thinking }],
        encrypted_content: block.signature ?? `enc_mock_${serial}_${output_index}` };
      emit('response.output_item.done', { output_index, item });
      output.push(item);
    } else if (block.type === 'text') {
      const item_id = `msg_mock_${serial}_${output_index}`;
      emit('response.output_item.added', { output_index, item: { id: item_id, type: 'message', role: 'assistant', status: 'in_progress', content: [] } });
      emit('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const delta of textDeltas(block)) {
        emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
      }
      const annotations = (block.citations ?? []).map((citation) => openAIUrlCitation(citation, block.text));
      annotations.forEach((annotation, annotation_index) => {
        emit('response.output_text.annotation.added', { item_id, output_index, content_index: 0, annotation_index, annotation });
      });
      emit('response.output_text.done', { item_id, output_index, content_index: 0, text: block.text, logprobs: [] });
      const part = { type: 'output_text', text: block.text, annotations };
      emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
      const item = { id: item_id, type: 'message', role: 'assistant', status: 'completed', content: [part] };
      emit('response.output_item.done', { output_index, item });
      output.push(item);
    } else if (block.type === 'webSearch' || block.type === 'webFetch') {
      const item = openAIWebSearchItem(block, webToolId(block, 'ws', serial, output_index));
      emit('response.output_item.added', { output_index, item: { id: item.id, type: 'web_search_call', status: 'in_progress' } });
      for (const stage of ['in_progress', 'searching', 'completed']) {
        emit(`response.web_search_call.${stage}`, { item_id: item.id, output_index });
      }
      emit('response.output_item.done', { output_index, item });
      output.push(item);
    } else {
      const item_id = `fc_mock_${serial}_${output_index}`;
      const call_id = block.id ?? `call_mock_${serial}_${output_index}`;
      const args = argumentsText(block);
      emit('response.output_item.added', { output_index,
        item: { id: item_id, type: 'function_call', status: 'in_progress', call_id, name: block.name, arguments: '' } });
      for (const delta of chunks(args, 4)) emit('response.function_call_arguments.delta', { item_id, output_index, delta });
      emit('response.function_call_arguments.done', { item_id, output_index, name: block.name, arguments: args });
      const item = { id: item_id, type: 'function_call', status: 'completed', call_id, name: block.name, arguments: args };
      emit('response.output_item.done', { output_index, item });
      output.push(item);
    }
  });
  const usage = usageOf(turn);
  const finalUsage = {
    input_tokens: usage.input + usage.cacheRead, input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.cacheRead + usage.output,
  };
  if (stopReasonOf(turn) === 'length') {
    emit('response.incomplete', { response: { ...shell('incomplete', output), usage: finalUsage,
      incomplete_details: { reason: 'max_output_tokens' } } });
  } else {
    emit('response.completed', { response: { ...shell('completed', output), usage: finalUsage } });
  }
  return frames;
}

export const openAIResponsesMalformedFrame = 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",,,\n\n';

/** `response.failed` inside a 200 stream: how the Responses API reports a server error midway. */
export function openAIResponsesErrorEvent(model: string): string {
  const response = { id: 'resp_mock_failed', object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'failed', model,
    output: [], incomplete_details: null, usage: null,
    error: { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' } };
  return `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: 999, response })}\n\n`;
}

/** The Responses API's 400 for input over the window (it names no counts). */
export function openAIResponsesContextTooLong(): unknown {
  return { error: {
    message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
    type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } };
}
