import axe from 'axe-core';

/**
 * Runs axe-core on `el` and returns its violations in a readable form (an empty list when clean).
 * Only colour contrast is off: jsdom computes no colours.
 */
export async function axeViolations(el: Element): Promise<string[]> {
  // No preloading of media: jsdom fetches no video, and axe would wait 10 s for it.
  const results = await axe.run(el, { preload: false, rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
