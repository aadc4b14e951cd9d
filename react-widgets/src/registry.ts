import type { ComponentType } from 'react';
import type { WidgetProps } from './types';
import { ChatPanel } from './widgets/ChatPanel';
import { PaymentMethodBlocks } from './widgets/PaymentMethodBlocks';
import { SwipeGame } from './widgets/SwipeGame';

/** Widgets the page can mount, by the name it passes to `mount`. Props are checked per widget. */
export const widgets: Record<string, ComponentType<WidgetProps<any>>> = {
  ChatPanel,
  PaymentMethodBlocks,
  SwipeGame,
};
