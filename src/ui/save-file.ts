// Files the SPA fetched (exports, templates, the download center) are saved by the browser under their name.

/** Offers a fetched file to the browser's download (an object URL behind a temporary link). */
export function saveFile({ blob, name }: { blob: Blob; name: string }): void {
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
