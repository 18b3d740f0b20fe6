/** A box on screen in CSS pixels, as getBoundingClientRect gives it. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export const TOAST_PLACES = ['bottom-right', 'top-right', 'bottom-left', 'top', 'bottom'] as const;
export type ToastPlace = (typeof TOAST_PLACES)[number];

/** Where each place puts the toast viewport (Tailwind classes, all fixed). */
export const TOAST_PLACE_CLASS: Record<ToastPlace, string> = {
  'bottom-right': 'right-4 bottom-16 w-96',
  'top-right': 'right-4 top-[4.5rem] w-96',
  'bottom-left': 'left-4 bottom-16 w-96',
  top: 'inset-x-3 top-[calc(env(safe-area-inset-top)+3.75rem)]',
  // Above the bottom bar and left of the add button, which it must not cover either.
  bottom: 'left-3 right-[5.5rem] bottom-[calc(4rem+env(safe-area-inset-bottom)+0.75rem)]',
};

const WIDE_PX = 768;
const TOAST_WIDTH_PX = 384;
/** A toast with a title, a line of description and an action; a taller one only reaches further. */
const TOAST_HEIGHT_PX = 112;
const GAP_PX = 16;
const HEADER_PX = 72;
const PHONE_TOP_PX = 60;
const PHONE_BOTTOM_PX = 76;

function boxOf(place: ToastPlace, width: number, height: number): Box {
  switch (place) {
    case 'bottom-right':
      return {
        left: width - GAP_PX - TOAST_WIDTH_PX,
        right: width - GAP_PX,
        top: height - 64 - TOAST_HEIGHT_PX,
        bottom: height - 64,
      };
    case 'top-right':
      return {
        left: width - GAP_PX - TOAST_WIDTH_PX,
        right: width - GAP_PX,
        top: HEADER_PX,
        bottom: HEADER_PX + TOAST_HEIGHT_PX,
      };
    case 'bottom-left':
      return {
        left: GAP_PX,
        right: GAP_PX + TOAST_WIDTH_PX,
        top: height - 64 - TOAST_HEIGHT_PX,
        bottom: height - 64,
      };
    case 'top':
      return { left: 12, right: width - 12, top: PHONE_TOP_PX, bottom: PHONE_TOP_PX + TOAST_HEIGHT_PX };
    case 'bottom':
      return {
        left: 12,
        right: width - 88,
        top: height - PHONE_BOTTOM_PX - TOAST_HEIGHT_PX,
        bottom: height - PHONE_BOTTOM_PX,
      };
  }
}

/** The places a toast may take at this width, the usual one first. */
function placesAt(width: number): readonly [ToastPlace, ...ToastPlace[]] {
  return width >= WIDE_PX ? ['bottom-right', 'top-right', 'bottom-left'] : ['top', 'bottom'];
}

/** Where a toast goes when nothing is in its way. */
export function usualPlace(width: number): ToastPlace {
  return placesAt(width)[0];
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Where a toast goes so that it covers none of `avoid` (the control the user is working in, such as
 * the quick-add card they will press 'Add todo' on again): the usual corner when it is clear, else
 * the first clear one; when none is clear, the usual one.
 */
export function placeToast(viewport: { width: number; height: number }, avoid: readonly Box[]): ToastPlace {
  const places = placesAt(viewport.width);
  const clear = places.find((place) => {
    const box = boxOf(place, viewport.width, viewport.height);
    return avoid.every((a) => !overlaps(box, a));
  });
  return clear ?? places[0];
}
