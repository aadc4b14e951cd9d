export { SwipeGame, SWIPE, formatWait } from './SwipeGame';
