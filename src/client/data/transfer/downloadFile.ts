import type { ExportFile } from './dataTransfer';

/** Saves a file the browser downloads, its text or its bytes (no network: the file is made on the device). */
export function downloadFile(file: Pick<ExportFile, 'name' | 'mime' | 'text' | 'blob'>): void {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(file.blob ?? new Blob([file.text], { type: `${file.mime};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: some browsers read the URL a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
