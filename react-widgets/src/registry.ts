import type { ComponentType } from 'react';
import type { WidgetProps } from './types';
import { ChatPanel } from './widgets/ChatPanel';
import {
  AloneTonight,
  CollageLanding,
  GalleryLanding,
  IconsLanding,
  MapLanding,
  SocialNetwork,
  TinderSwipe,
  TransitionsVideo,
  VideoLanding,
} from './widgets/Landers';
import { PaymentMethodBlocks } from './widgets/PaymentMethodBlocks';
import { SwipeGame } from './widgets/SwipeGame';

/** Widgets the page can mount, by the name it passes to `mount`. Props are checked per widget. */
// Each widget takes its own props; the table holds them all, so their type is left open here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const widgets: Record<string, ComponentType<WidgetProps<any>>> = {
  ChatPanel,
  // The landers (`/landers/{name}`), all with LanderProps.
  AloneTonight,
  CollageLanding,
  GalleryLanding,
  IconsLanding,
  MapLanding,
  SocialNetwork,
  TinderSwipe,
  TransitionsVideo,
  VideoLanding,
  PaymentMethodBlocks,
  SwipeGame,
};
