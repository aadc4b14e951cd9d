// Storybook's project annotations (our preview plus the React renderer's) for composeStories, and
// a clean DOM between tests.
import { setProjectAnnotations } from '@storybook/react-vite';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import preview from '../../stories/.storybook/preview';

const annotations = setProjectAnnotations([preview]);

beforeAll(annotations.beforeAll);

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
