// Small on purpose: the reminder watch (loaded for guests too) needs only this, not ./notifications.

/** The page's service worker registration, or null (none registered, e.g. the dev server). */
export async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/**
 * Shows a system notification when the person allowed them: through the service worker when there is
 * one (a click opens `url`), else the page's own Notification. `tag` lets a push and the page's own
 * reminder for the same thing replace each other instead of showing twice.
 */
export async function showSystemNotification(title: string, body: string, url: string, tag: string) {
  if (typeof window === 'undefined' || !('Notification' in window)) return;
  if (Notification.permission !== 'granted') return;
  try {
    const reg = await registration();
    if (reg) await reg.showNotification(title, { body, tag, data: { url }, icon: '/pwa-192x192.png' });
    else new Notification(title, { body, tag });
  } catch {
    // A browser that refuses (a page Notification on Android Chrome) still has the toast.
  }
}
