// Path handling for tools: the model gives paths relative to the workspace folder or absolute ones. The rules are the
// workspace's own (src/runtime/paths.ts); tools reach them through their Workspace.
export { displayPath, joinPath, parentOf, relativeTo, resolvePath } from '../runtime/paths';
