// The accessibility check of the flows: axe-core on the page as it is. Serious and critical violations fail the test;
// the others are listed (printed, and attached to the test as JSON) for the person reading the report.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const BLOCKING = new Set(['serious', 'critical']);

/** Runs axe on `page` (WCAG 2.x A/AA and best practices); fails on serious or critical violations. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  await test.info().attach(`axe-${screen}.json`, { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
  const minor = summary.filter((v) => !BLOCKING.has(v.impact ?? ''));
  if (minor.length > 0) console.log(`axe ${screen}: ${minor.map((v) => `${v.impact} ${v.id} at ${v.targets.slice(0, 2).join(' ; ')}`).join(', ')}`);
  const blocking = summary.filter((v) => BLOCKING.has(v.impact ?? ''));
  expect(blocking, `axe found serious or critical problems on ${screen}`).toEqual([]);
}
