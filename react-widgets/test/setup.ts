// Storybook's project annotations (our preview plus the React renderer's) for composeStories, and
// a clean DOM between tests.
import { setProjectAnnotations } from '@storybook/react-vite';
import { cleanup, configure } from '@testing-library/react';
import { configure as configureStoryTest } from 'storybook/test';
import { afterEach, beforeAll, vi } from 'vitest';
import preview from '../../stories/.storybook/preview';

// The stories' fixtures speak of "today" and "yesterday" (minutes and days before now): a run just
// after midnight or on New Year's Day would read them otherwise. The clock starts at a fixed
// midday and runs on from there; only Date is replaced, timers stay real.
vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 5, 17, 12, 0, 0), shouldAdvanceTime: true });

const annotations = setProjectAnnotations([preview]);

beforeAll(annotations.beforeAll);

// findBy*/waitFor give up after 1 s by default; on a busy CI machine a first render of the chat
// panel can take longer. Both copies of testing-library (ours and the one inside storybook/test,
// used by the stories' play functions) wait up to 8 s.
configure({ asyncUtilTimeout: 8_000 });
configureStoryTest({ asyncUtilTimeout: 8_000 });

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
