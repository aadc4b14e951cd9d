import type { StorybookConfig } from '@storybook/react-vite';
import { mergeConfig } from 'vite';

const config: StorybookConfig = {
  stories: ['../**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  // No internet here: never phone home.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Storybook's own preview bundle is large by nature; the widget budget is checked on
  // public/widgets/vonk-widgets.js instead.
  viteFinal: (config) => mergeConfig(config, { build: { chunkSizeWarningLimit: 2000 } }),
};

export default config;
