import { useEffect, useRef } from 'react';
import { isImageType } from '../../shared/attachments';

/** Whether an element takes typed text (a field, a text area, an editable region). */
function takesText(element: EventTarget | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement) return !element.readOnly && !element.disabled;
  if (element instanceof HTMLInputElement) {
    const textual = ['text', 'search', 'url', 'email', 'tel', 'password', 'number', ''];
    return textual.includes(element.type) && !element.readOnly && !element.disabled;
  }
  return false;
}

/**
 * The images a paste carries that belong on the item rather than in a field: every pasted image, unless
 * the paste lands in a text field and carries text too (a copied paragraph with a picture in it is
 * typing, and its text goes where the caret is).
 */
export function pastedImages(
  data: DataTransfer | null,
  target: EventTarget | null,
  now = new Date(),
): File[] {
  if (!data) return [];
  const images = Array.from(data.files ?? []).filter((f) => isImageType(f.type));
  if (images.length === 0) return [];
  const hasText = Array.from(data.types ?? []).includes('text/plain') && data.getData('text/plain') !== '';
  if (hasText && takesText(target)) return [];
  return images.map((image, index) => named(image, index, now));
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A pasted screenshot arrives as 'image.png' from every browser: it is named by when it was pasted
 * ('Pasted image 2026-11-20 10.42.png'), so a strip of them can be told apart.
 */
function named(image: File, index: number, now: Date): File {
  if (image.name !== '' && !/^image\.\w+$/i.test(image.name)) return image;
  const ext = image.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}.${pad(now.getMinutes())}`;
  const suffix = index > 0 ? ` (${index + 1})` : '';
  return new File([image], `Pasted image ${stamp}${suffix}.${ext}`, {
    type: image.type,
    lastModified: image.lastModified,
  });
}

/**
 * Paste an image on an item's page to attach it (DESIGN.md release 5). A paste of text, or of an image
 * with its text into a field, is left to the field.
 */
export function useImagePaste(enabled: boolean, onFiles: (files: File[]) => void): void {
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    if (!enabled) return;
    const paste = (event: ClipboardEvent) => {
      const images = pastedImages(event.clipboardData, event.target);
      if (images.length === 0) return;
      event.preventDefault();
      latest.current(images);
    };
    document.addEventListener('paste', paste);
    return () => document.removeEventListener('paste', paste);
  }, [enabled]);
}
