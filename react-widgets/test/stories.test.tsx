// Every Storybook story is a test: rendered in jsdom, its play function run (that is where the
// interaction assertions live), then checked with axe-core.
import { composeStories } from '@storybook/react-vite';
import { describe, expect, test } from 'vitest';
import { axeViolations } from './axe';

type StoryModule = Parameters<typeof composeStories>[0];
type ComposedStory = { run: (context?: { canvasElement?: HTMLElement }) => Promise<void> };

const modules = import.meta.glob<StoryModule>('../../stories/**/*.stories.tsx', { eager: true });

test('story files are found', () => {
  expect(Object.keys(modules).length).toBeGreaterThan(0);
});

describe.each(Object.entries(modules))('%s', (_path, module) => {
  const stories = Object.entries(composeStories(module)) as [string, ComposedStory][];

  test('has stories', () => {
    expect(stories.length).toBeGreaterThan(0);
  });

  test.each(stories)('%s', async (_name, Story) => {
    const canvasElement = document.createElement('div');
    document.body.appendChild(canvasElement);

    // Renders the story into canvasElement and runs its play function, if any.
    await Story.run({ canvasElement });

    expect(canvasElement.childElementCount).toBeGreaterThan(0);
    expect(await axeViolations(canvasElement)).toEqual([]);
  });
});
