// The HTML export's timeline: Previous and Next through the transcript's steps (each user message, assistant reply,
// tool call and compaction, marked in the page as `replay-step`), a position like "3 / 17", ← and →, and the step in
// the address (#step-3) so a reload keeps it. Every step and its change is already in the page; the script only adds
// the controls (so a reader without scripts sees no dead buttons) and marks the current step. The CSP allows this one
// script by its hash and nothing else: it fetches nothing and reads only the page. The address is not written on load:
// Chromium would still scroll to that fragment, past the header. A step inside a closed group (a subagent task's
// transcript) opens the group when it becomes current.

/** What a step is, as the replay view names it. */
export type StepKind = 'user' | 'assistant' | 'tool' | 'compaction';

/** The attributes that make an element step `index` (0-based; its anchor and position are 1-based). */
export function stepAttributes(index: number, kind: StepKind): string {
  return ` id="step-${index + 1}" data-testid="replay-step" data-index="${index}" data-kind="${kind}"`;
}

export const TIMELINE_SCRIPT = `(function () {
  var steps = document.querySelectorAll('[data-testid="replay-step"]');
  if (!steps.length) return;
  var bar = document.createElement('nav');
  bar.className = 'timeline';
  bar.setAttribute('aria-label', 'Steps');
  function control(label, testId, delta) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.setAttribute('data-testid', testId);
    button.onclick = function () { go(current + delta, true); };
    return button;
  }
  var prev = control('\\u2190 Previous', 'replay-prev', -1);
  var position = document.createElement('span');
  position.className = 'position';
  position.setAttribute('data-testid', 'replay-position');
  position.setAttribute('aria-live', 'polite');
  var next = control('Next \\u2192', 'replay-next', 1);
  bar.append(prev, position, next);
  document.body.prepend(bar);
  document.body.classList.add('stepping');
  var current = 0;
  function go(index, scroll, onLoad) {
    index = Math.max(0, Math.min(steps.length - 1, index));
    steps[current].removeAttribute('data-current');
    current = index;
    var step = steps[index];
    step.setAttribute('data-current', 'true');
    position.textContent = index + 1 + ' / ' + steps.length;
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    step.querySelectorAll('details.change').forEach(function (d) { d.open = true; });
    for (var group = step.parentElement; group; group = group.parentElement) if (group.tagName === 'DETAILS') group.open = true;
    if (scroll) step.scrollIntoView({ block: 'center' });
    if (!onLoad) try { history.replaceState(null, '', '#step-' + (index + 1)); } catch (e) {}
  }
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowRight') go(current + 1, true);
    else if (event.key === 'ArrowLeft') go(current - 1, true);
  });
  document.addEventListener('click', function (event) {
    var step = event.target.closest && event.target.closest('[data-testid="replay-step"]');
    if (step) go(Number(step.getAttribute('data-index')), false);
  });
  var linked = /^#step-(\\d+)$/.exec(location.hash);
  go(linked ? Number(linked[1]) - 1 : 0, !!linked, true);
})();`;

/** The CSP source allowing exactly TIMELINE_SCRIPT (its SHA-256; a unit test recomputes it). */
export const TIMELINE_SCRIPT_HASH = "'sha256-IqCQdM0bI2c0FR3UkbBoRm6ZBQh4spkokj6TWL8UOBE='";

export const TIMELINE_STYLE = `
.timeline{display:none}.stepping .timeline{display:flex;position:sticky;top:0;z-index:1;gap:.5rem;align-items:center;justify-content:center;
padding:.45rem .6rem;margin:0 -1rem .4rem;background:#fafafa;border-bottom:1px solid #e3e3e3}
.timeline button{font:inherit;font-size:14px;padding:.3rem .8rem;border:1px solid #c7c7cc;border-radius:6px;background:#fff;color:inherit;cursor:pointer}
.timeline button:disabled{opacity:.45;cursor:default}
.timeline .position{min-width:6.5em;text-align:center;font-variant-numeric:tabular-nums;color:#555}
[data-current="true"]{outline:2px solid #f59e0b;outline-offset:2px}
.stepping [id^="step-"]{scroll-margin-top:3.5rem}
@media (prefers-color-scheme:dark){.stepping .timeline{background:#111;border-color:#333}.timeline button{background:#1a1a1a;border-color:#444}
.timeline .position{color:#a1a1aa}}
`;
