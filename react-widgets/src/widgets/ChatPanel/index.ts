export { ChatPanel, type ChatEventDetail } from './ChatPanel';
export { GiftPicture } from './gifts';
export { CHAT, countChars, fill, newClientId, pill } from './util';
