import { afterAll, describe, expect, it } from 'vitest';
import { describeRuntimeContract } from './runtime-contract';
import { createWebContainerDouble, type WebContainerDouble } from './testing/webcontainer-double';
import { createWebContainerRuntime } from './webcontainer';

const doubles: WebContainerDouble[] = [];
async function makeDouble(): Promise<WebContainerDouble> {
  const double = await createWebContainerDouble();
  doubles.push(double);
  return double;
}
afterAll(() => {
  for (const double of doubles) double.teardown();
});

describeRuntimeContract('webcontainer (Node double)', async () => createWebContainerRuntime(await makeDouble()));
