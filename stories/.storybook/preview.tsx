import type { Preview } from '@storybook/react-vite';
import './preview.css';

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    viewport: {
      options: {
        mobile375: { name: 'Phone (375 px)', styles: { width: '375px', height: '812px' }, type: 'mobile' },
        tablet768: { name: 'Tablet (768 px)', styles: { width: '768px', height: '1024px' }, type: 'tablet' },
        desktop1280: { name: 'Desktop (1280 px)', styles: { width: '1280px', height: '800px' }, type: 'desktop' },
      },
    },
    a11y: {
      // Fail loudly in the a11y panel; the widget tests run axe too.
      test: 'error',
    },
  },
};

export default preview;
