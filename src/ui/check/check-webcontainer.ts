// The manual WebContainer check page (check-webcontainer.html; `npm run check:webcontainer` opens it): one button
// runs every check against the real WebContainer, the page reloads itself once for the reload check, and the report
// can be copied. Plain DOM: this page is a tool for a person, not part of the app.
import { formatReport, type CheckResult } from '../../app/boot/webcontainer-check/runner';
import { runReloadCheck, runWebContainerChecks } from '../../app/boot/webcontainer-check/page';

const STORAGE_KEY = 'conch.webcontainer-check';

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const runButton = element<HTMLButtonElement>('run');
const copyButton = element<HTMLButtonElement>('copy');
const list = element<HTMLOListElement>('results');
const report = element<HTMLTextAreaElement>('report');
const status = element<HTMLParagraphElement>('status');
const previews = element<HTMLDivElement>('previews');

let results: CheckResult[] = [];

function show(result: CheckResult): void {
  results.push(result);
  const item = document.createElement('li');
  item.dataset.ok = String(result.ok);
  item.dataset.testid = 'check-result';
  const head = document.createElement('strong');
  head.textContent = `${result.ok ? 'PASS' : 'FAIL'} · ${result.title} · ${result.ms} ms`;
  const detail = document.createElement('pre');
  detail.textContent = result.detail;
  item.append(head, detail);
  list.append(item);
  report.value = formatReport(results, { userAgent: navigator.userAgent, when: new Date() });
}

function openPreview(url: string): () => void {
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.title = 'Preview used by the check';
  frame.setAttribute('allow', 'cross-origin-isolated');
  previews.append(frame);
  return () => frame.remove();
}

async function runAll(): Promise<void> {
  runButton.disabled = true;
  results = [];
  list.replaceChildren();
  status.textContent = 'Running… (a minute or two; npm install takes longest)';
  const all = await runWebContainerChecks({ crossOriginIsolated: globalThis.crossOriginIsolated === true, openPreview, onResult: show });
  if (all.length === 1) {
    status.textContent = 'WebContainer did not boot, so nothing else ran. Copy the report below.';
    runButton.disabled = false;
    return;
  }
  status.textContent = 'Reloading the page for the last check…';
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(results));
  location.reload();
}

async function finishAfterReload(stored: string): Promise<void> {
  sessionStorage.removeItem(STORAGE_KEY);
  runButton.disabled = true;
  for (const result of JSON.parse(stored) as CheckResult[]) show(result);
  status.textContent = 'Page reloaded; checking that WebContainer boots again…';
  show(await runReloadCheck({ crossOriginIsolated: globalThis.crossOriginIsolated === true }));
  const failed = results.filter((r) => !r.ok).length;
  status.textContent = failed === 0 ? `Done: all ${results.length} checks passed.` : `Done: ${failed} of ${results.length} checks failed.`;
  runButton.disabled = false;
}

runButton.addEventListener('click', () => void runAll());
copyButton.addEventListener('click', () => {
  void navigator.clipboard.writeText(report.value).then(
    () => (copyButton.textContent = 'Copied'),
    () => report.select(),
  );
});

const stored = sessionStorage.getItem(STORAGE_KEY);
if (stored) void finishAfterReload(stored);
