import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ComponentType } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { WidgetProps } from '../react-widgets/src/types';
import type { LanderProps } from '../react-widgets/src/generated/LanderProps';
import { LANDERS } from '../react-widgets/src/widgets/Landers';
import { lander, labelsNl, profiles } from './fixtures/landers';

/**
 * The nine lander designs (`/landers/{name}`), each on a phone and on a desktop. Every story
 * checks the headline, that the way to signup is there and opens the signup modal
 * (`data-signup-link`), and the widget tests run axe on it.
 */
const meta = {
  title: 'Widgets/Landers',
  component: LANDERS.alonetonight as ComponentType<WidgetProps<LanderProps>>,
  args: { ...lander, dispatch: fn().mockName('dispatch') },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<ComponentType<WidgetProps<LanderProps>>>;

export default meta;
type Story = StoryObj<typeof meta>;

const phone = { globals: { viewport: { value: 'mobile375', isRotated: false } } };
const desktop = { globals: { viewport: { value: 'desktop1280', isRotated: false } } };

async function leadsToSignup(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await expect(canvas.getByRole('heading', { level: 1 })).toHaveTextContent(labelsNl.headline);
  const cta = canvas.getAllByTestId('lander-signup')[0];
  await expect(cta).toHaveAttribute('href', '/signup');
  await expect(cta).toHaveAttribute('data-signup-link');
  await expect(cta).toHaveTextContent(labelsNl.cta);
  await expect(canvas.getByRole('link', { name: labelsNl.login })).toHaveAttribute('href', '/login');
}

function story(name: keyof typeof LANDERS, extra: Partial<Story> = {}): Story {
  return {
    render: (args) => {
      const Design = LANDERS[name];
      return <Design {...args} />;
    },
    play: async ({ canvasElement }) => {
      await leadsToSignup(canvasElement);
      await expect(canvasElement.querySelector(`[data-design="${name}"]`)).not.toBeNull();
    },
    ...extra,
  };
}

export const AloneTonightPhone: Story = { ...story('alonetonight'), ...phone };
export const AloneTonightDesktop: Story = {
  ...story('alonetonight'),
  ...desktop,
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    const canvas = within(canvasElement);
    // Six faces, each a way to signup about that member; who is online says so.
    await expect(canvas.getAllByTestId('lander-profile')).toHaveLength(6);
    await expect(canvas.getAllByTestId('lander-profile')[0]).toHaveAttribute('href', '/members/201/signup');
    await expect(canvas.getByText('1284 leden nu online')).toBeInTheDocument();
  },
};
export const CollagePhone: Story = { ...story('collagelanding'), ...phone };
export const CollageDesktop: Story = { ...story('collagelanding'), ...desktop };
export const GalleryPhone: Story = { ...story('gallery'), ...phone };
export const GalleryDesktop: Story = { ...story('gallery'), ...desktop };
/** `/members/{id}/landing2`: the member up front, the others under them. */
export const GalleryWithProfile: Story = {
  ...story('gallery'),
  ...phone,
  args: { featured: profiles[3] },
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getByTestId('lander-featured')).toHaveTextContent('Eva, 27');
  },
};
export const IconsPhone: Story = { ...story('iconslanding'), ...phone };
export const IconsDesktop: Story = {
  ...story('iconslanding'),
  ...desktop,
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getByText(labelsNl.point_discreet)).toBeInTheDocument();
  },
};
export const MapPhone: Story = { ...story('maplanding'), ...phone };
export const MapDesktop: Story = {
  ...story('maplanding'),
  ...desktop,
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getByRole('img', { name: labelsNl.nearby })).toBeInTheDocument();
  },
};
export const SocialNetworkPhone: Story = { ...story('socialnetwork'), ...phone };
export const SocialNetworkDesktop: Story = { ...story('socialnetwork'), ...desktop };
/** `/members/{id}/landing3`. */
export const SocialNetworkWithProfile: Story = {
  ...story('socialnetwork'),
  ...desktop,
  args: { featured: profiles[0] },
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getByTestId('lander-featured')).toHaveTextContent('Sanne, 29');
  },
};
/** Without a clip the portraits fade into one another. */
export const TransitionsVideoPhone: Story = {
  ...story('transitionsvideolanding'),
  ...phone,
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getByTestId('lander-slides')).toBeInTheDocument();
  },
};
/** With the clip: muted, looping, inline; its poster first, the clip once the page has loaded. */
export const TransitionsVideoDesktop: Story = {
  ...story('transitionsvideolanding'),
  ...desktop,
  args: { clip: { src: '/media/public/demo/lander-clip.webm', poster: '/media/public/demo/female-0.jpg' } },
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    const clip = within(canvasElement).getByTestId('lander-clip') as HTMLVideoElement;
    await expect(clip.muted && clip.loop && clip.autoplay).toBe(true);
    await expect(clip).toHaveAttribute('poster', '/media/public/demo/female-0.jpg');
    await waitFor(() => expect(clip).toHaveAttribute('src', '/media/public/demo/lander-clip.webm'));
  },
};
export const VideoPhone: Story = { ...story('video'), ...phone };
/** Live-cam tiles under the clip. */
export const VideoDesktop: Story = {
  ...story('video'),
  ...desktop,
  play: async ({ canvasElement }) => {
    await leadsToSignup(canvasElement);
    await expect(within(canvasElement).getAllByTestId('lander-live')).toHaveLength(4);
  },
};
/** Three cards (or the first like), then the stack asks for signup. */
export const TinderSwipePhone: Story = {
  render: (args) => <LANDERS.tinderswipe {...args} />,
  ...phone,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId('lander-swipe-card')).toHaveTextContent('Sanne, 29');
    // A card this big takes the larger photo.
    await expect(canvas.getByTestId('lander-swipe-card').querySelector('img')?.getAttribute('src')).toMatch(/#large$/);
    await userEvent.click(canvas.getByRole('button', { name: labelsNl.swipe_pass }));
    await expect(canvas.getByTestId('lander-swipe-card')).toHaveTextContent('Lotte, 34');
    canvas.getByRole('group', { name: labelsNl.swipe_stack }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(canvas.getByTestId('lander-swipe-done')).toHaveTextContent(labelsNl.swipe_done));
    await leadsToSignup(canvasElement);
  },
};
/** Signing up is one click away from the first card too. */
export const TinderSwipeDesktop: Story = {
  ...story('tinderswipe'),
  ...desktop,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('lander-swipe-card')).toBeInTheDocument();
    await leadsToSignup(canvasElement);
  },
};
/** `?t=2`: after two seconds someone "likes" the visitor; the button leads to signup. */
export const LikePopup: Story = {
  ...story('gallery'),
  ...phone,
  args: { like_after: 0 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const popup = await canvas.findByTestId('like-popup');
    await expect(popup).toHaveTextContent('Sanne vindt jou leuk!');
    await expect(canvas.getByTestId('like-popup-view')).toHaveAttribute('data-signup-link');
    await userEvent.click(canvas.getByTestId('like-popup-close'));
    await expect(canvas.queryByTestId('like-popup')).toBeNull();
  },
};
