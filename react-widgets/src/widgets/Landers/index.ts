export {
  AloneTonight,
  CollageLanding,
  GalleryLanding,
  IconsLanding,
  LANDERS,
  MapLanding,
  SocialNetwork,
  TinderSwipe,
  TransitionsVideo,
  VideoLanding,
} from './Landers';
