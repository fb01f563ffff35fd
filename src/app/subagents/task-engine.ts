// What running a task needs beyond the session's first screen, loaded with the first run (as the loop is): the tool's
// schema, the coding tools for a subagent, its run, its policy, its prompt and its result text.
export { createTaskTool } from './task-tool';
export { createCodingTools } from '../../tools/index';
export { runSubagent } from './run-one';
export { subagentToolCheck } from './call-check';
export { subagentSystemPrompt } from './role-prompt';
export { taskResultText } from './task-result';
